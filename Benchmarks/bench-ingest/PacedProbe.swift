/// The daemon's CPU per request at a fixed offered rate (`--paced RATE`), for the submission and
/// for its floor (`GET /healthz`), each measured in the same way one after the other.
///
/// At saturation (the main runs) the daemon and this load generator share the two cores, so the
/// CPU per submission also carries how often the daemon's threads are preempted and how much of
/// each group commit is amortised; the same binary varied by ±20 % from run to run on the 2-core
/// VM (issue 27). Below saturation each request costs what it costs, and the submission's own
/// work is the difference of two steadier figures. scripts/bench-compare uses this figure.
struct PacedProbe {
    struct Measured {
        let name: String
        let run: RunResult
        let observation: Observation

        var microsecondsPerRequest: Double { observation.daemonMicrosecondsPerSubmission }
    }

    let submission: Measured
    let floor: Measured

    /// The submissions' own work above the floor, in µs of daemon CPU per request.
    var ownMicroseconds: Double { submission.microsecondsPerRequest - floor.microsecondsPerRequest }

    static func measure(rate: Double, clients: Int, duration: Double, daemon: DaemonProcess, options: Options,
                        submissions: (Int) -> ClientCursor, floorRequest: FloorProbes.Probe) throws -> PacedProbe {
        say()
        say("paced: the same \(clients) clients sending \(fmt(rate)) requests/s in all, each on a fixed schedule "
            + "(\(fmt(duration, 1)) s measured after \(fmt(options.warmupSeconds, 1)) s warm-up):")
        func one<Source: RequestSource>(_ name: String, _ cursors: [Source]) throws -> Measured {
            let watch = Observation.Start(daemon: daemon)
            let run = LoadGenerator.run(port: daemon.port, cursors: cursors, warmup: options.warmupSeconds, duration: duration,
                                        rate: rate)
            let seen = watch.finish(acknowledged: run.acknowledged)
            try daemon.checkRunning()
            let errors = run.errors.values.reduce(0, +) + run.unanswered
            let m = Measured(name: name, run: run, observation: seen)
            let threads = seen.daemonThreads.reduce((0.0, 0.0)) { ($0.0 + $1.usage.voluntarySwitches, $0.1 + $1.usage.preemptions) }
            let n = Double(max(run.acknowledged, 1))
            say("  \(name): \(fmt(m.microsecondsPerRequest)) µs daemon CPU per request (kernel "
                + "\(fmt(seen.daemonKernelMicrosecondsPerSubmission)) µs; \(fmt(threads.0 / n, 2)) waits and "
                + "\(fmt(threads.1 / n, 2)) preemptions per request), \(fmt(run.throughput)) /s answered, "
                + "p99 \(fmt(run.latencyMs(0.99), 1)) ms, machine busy \(fmt(100 * seen.machineBusy))%"
                + (errors > 0 ? ", \(errors) not 200 — NOT MEASURED CLEANLY" : ""))
            return m
        }
        let submission = try one("PUT /v1/me/days/{date}", (0..<clients).map(submissions))
        let floor = try one(floorRequest.name, Array(repeating: FixedRequest(bytes: floorRequest.request), count: clients))
        let probe = PacedProbe(submission: submission, floor: floor)
        say("  ⇒ the submission's own work at a fixed rate: \(fmt(probe.ownMicroseconds)) µs above the floor")
        return probe
    }
}
