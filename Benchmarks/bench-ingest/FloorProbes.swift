/// What the daemon's CPU per request is before a submission's own work: the same clients,
/// connections and loopback, sending requests that write nothing. Measured in the same run as
/// the submissions, so "CPU per submission" can be read against it.
///
/// - `GET /healthz`: libmicrohttpd, the kernel's loopback TCP and wake-ups, our server layer
///   (routing, the access log line, the JSON answer); no token, no database write.
/// - `GET /v1/me/today` with a patient token, for comparison: the same plus authentication and
///   a read transaction (the patient, the days, the alerts, the day's tasks and reminder plan) —
///   more than a submission's planning reads, so not a floor of it.
struct FloorProbes {
    struct Probe {
        let name: String
        let request: [UInt8]
    }

    struct Measured {
        let name: String
        let run: RunResult
        let microsecondsPerRequest: Double
        let kernelMicrosecondsPerRequest: Double
    }

    static func probes(patientToken: String) -> [Probe] {
        [Probe(name: "GET /healthz", request: HTTPConnection.encode("GET", "/healthz", headers: [], body: [])),
         Probe(name: "GET /v1/me/today", request: HTTPConnection.encode("GET", "/v1/me/today",
                                                                         headers: [("Authorization", "Bearer \(patientToken)")], body: []))]
    }

    /// Runs each probe once with `clients` clients; prints a line each.
    static func measure(_ probes: [Probe], clients: Int, daemon: DaemonProcess, options: Options) throws -> [Measured] {
        say()
        say("floor: the same \(clients) clients sending requests that write nothing (daemon CPU per answered request):")
        var out: [Measured] = []
        for probe in probes {
            let watch = Observation.Start(daemon: daemon)
            let run = LoadGenerator.run(port: daemon.port, cursors: Array(repeating: FixedRequest(bytes: probe.request), count: clients),
                                        warmup: options.warmupSeconds, duration: options.durationSeconds)
            let seen = watch.finish(acknowledged: run.acknowledged)
            try daemon.checkRunning()
            let m = Measured(name: probe.name, run: run, microsecondsPerRequest: seen.daemonMicrosecondsPerSubmission,
                             kernelMicrosecondsPerRequest: seen.daemonKernelMicrosecondsPerSubmission)
            let errors = run.errors.values.reduce(0, +) + run.unanswered
            say("  \(probe.name): \(fmt(m.microsecondsPerRequest)) µs per request (kernel \(fmt(m.kernelMicrosecondsPerRequest)) µs), "
                + "\(fmt(run.throughput)) /s, p99 \(fmt(run.latencyMs(0.99), 1)) ms"
                + (errors > 0 ? ", \(errors) not 200 — FLOOR NOT MEASURED CLEANLY" : ""))
            out.append(m)
        }
        // Not the submissions' figure (issue 3's goal is judged before the probes), but said.
        say("  RSS peak of the whole run, these probes included (VmHWM): " + (ProcessMemory.peakRSSKB(pid: daemon.pid).map(mib) ?? "?"))
        return out
    }
}
