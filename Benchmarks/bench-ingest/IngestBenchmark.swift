import Foundation

/// The benchmark, step by step in the order of its report (see main.swift).
struct IngestBenchmark {
    let options: Options

    /// Goals of issue 3 ("Tests and benchmarks").
    static let goalRatio = 2.5
    static let goalP99Ms = 50.0
    static let goalRSSBytes = 64_000_000
    /// Goals of issue 11 ("ingest at the speed of the disk"): the load generator shares the cores.
    static let goalCeilingShare = 1.0
    static let goalThroughputCap = 4000.0

    /// Runs everything; returns the exit status.
    func run() throws -> Int32 {
        let root = try Self.temporaryDirectory(in: options.directory)
        var status: Int32 = 1
        defer {
            // Kept after a failure (daemon log, database) or on request.
            if status == 0 && !options.keep {
                try? FileManager.default.removeItem(atPath: root)
            } else {
                say("kept for inspection: \(root)")
            }
        }
        say("bench-ingest: durable submissions (PUT /v1/me/days/{date}) against the real hyponatrackd")
        say("machine: \(MachineInfo.cores) cores, \(MachineInfo.cpuModel), \(MachineInfo.kernel); "
            + "load average \(MachineInfo.loadAverage) at start")
        say("date: \(MachineInfo.utcNow)")
        say("disk under test: \(root) — \(MachineInfo.filesystem(of: root))")

        // 1. The single-commit ceiling, on the same filesystem as the daemon's data.
        try FileManager.default.createDirectory(atPath: root + "/ceiling", withIntermediateDirectories: false)
        let ceiling = try CommitCeiling.measure(directory: root + "/ceiling", seconds: options.ceilingSeconds)
        say("single-commit ceiling: \(fmt(ceiling)) commits/s (one INSERT per BEGIN IMMEDIATE…COMMIT, "
            + "WAL + synchronous=FULL, 1 thread, \(fmt(options.ceilingSeconds, 1)) s)")

        // 2. The daemon.
        let daemon = try DaemonProcess(executable: options.daemon, configFile: options.config,
                                       dataDirectory: root + "/data", logPath: root + "/daemon.log")
        var stopped = false
        defer { if !stopped { _ = daemon.stop(timeout: 5) } }
        say("daemon: \(options.daemon) pid \(daemon.pid) on 127.0.0.1:\(daemon.port), data in \(daemon.dataDirectory)")
        say("start-to-ready (spawn → first 200 from GET /healthz, polled every 2 ms): "
            + "\(fmt(daemon.startToReadySeconds * 1000, 1)) ms; RSS when ready "
            + (ProcessMemory.rssKB(pid: daemon.pid).map(mib) ?? "?"))

        // 3. Patients, enrolled and activated up front; clients take fresh ones as they go.
        let dates = (1...options.days).reversed().map { StudyDates.utc(daysFromToday: -$0) }
        let surgeryDate = StudyDates.utc(daysFromToday: -(options.days + 1))
        let enrollStart = Monotonic.now()
        let pool = PatientPool(try Enrollment.enroll(count: options.patients, surgeryDate: surgeryDate, port: daemon.port,
                                                     adminToken: try daemon.adminToken()))
        say("setup: \(options.patients) patients enrolled and activated in "
            + "\(fmt(Monotonic.seconds(from: enrollStart, to: Monotonic.now()), 1)) s (surgery \(surgeryDate)); "
            + "each client fills a patient's days \(dates.first!)…\(dates.last!) in calendar order, "
            + "\(options.perDay) submissions per day (each one new symptom entry), then takes a fresh patient")
        let idleKB = ProcessMemory.rssKB(pid: daemon.pid) ?? 0
        say("idle RSS after setup: \(mib(idleKB)), \(ProcessMemory.threads(pid: daemon.pid) ?? 0) threads")
        say("load: \(fmt(options.warmupSeconds, 1)) s warm-up + \(fmt(options.durationSeconds, 1)) s measured per run, "
            + "\(options.repetitions) runs per configuration; latency = send → full response, 200s only")

        // 4. Load runs; the largest client count is observed closely.
        let observed = options.clients.max()!
        var configurations: [ConfigurationResult] = []
        var observation: Observation?
        for clients in options.clients {
            let watch = clients == observed ? Observation.Start(daemon: daemon) : nil
            configurations.append(try runConfiguration(clients: clients, daemon: daemon, pool: pool, dates: dates, watch: watch))
            if let watch { observation = watch.finish(acknowledged: configurations.last!.acknowledged) }
        }
        say()
        say("patients used: \(min(pool.handedOut, options.patients)) of \(options.patients)"
            + (pool.wrapped ? " — POOL EXHAUSTED: patients were reused, so days grew beyond \(options.perDay) submissions "
               + "and later runs measured a heavier data shape (raise --patients)" : ""))
        Monotonic.sleep(1)
        let afterLoadKB = ProcessMemory.rssKB(pid: daemon.pid) ?? 0
        let peakKB = max(ProcessMemory.peakRSSKB(pid: daemon.pid) ?? 0, observation?.maxRSSKB ?? 0)
        // After the memory figures: they are the submissions' (16 clients' reads of a whole
        // day plan each peak higher).
        let floor = try FloorProbes.measure(FloorProbes.probes(patientToken: pool.sessions[0].token), clients: observed,
                                            daemon: daemon, options: options)
        let paced = options.pacedRate > 0
            ? try PacedProbe.measure(rate: options.pacedRate, clients: observed, duration: options.pacedSeconds, daemon: daemon,
                                     options: options,
                                     submissions: { ClientCursor(pool: pool, dates: dates, perDay: options.perDay, idPrefix: "paced\($0)") },
                                     floorRequest: FloorProbes.probes(patientToken: pool.sessions[0].token)[0])
            : nil

        // 5. Summary and where the time goes.
        let main = configurations.first { $0.clients == observed }!
        let ratio = main.throughput.median / ceiling
        say()
        say("summary (\(options.repetitions) runs each; throughput = acknowledged 200s per second):")
        for c in configurations { say(c.summary) }
        say("  ratio median throughput (\(observed) clients) / single-commit ceiling: "
            + "\(fmt(main.throughput.median)) / \(fmt(ceiling)) = \(fmt(ratio, 2))×")
        say("RSS: idle after setup \(mib(idleKB)); under \(observed)-client load max \(mib(observation?.maxRSSKB ?? 0)) "
            + "(sampled every 20 ms); peak over the whole run (VmHWM) \(mib(peakKB)); 1 s after the load \(mib(afterLoadKB))")
        // What the resident set is made of: the daemon's own memory, or pages of the shared
        // libraries it maps (file-backed, shared with every process that maps them).
        if let anon = ProcessMemory.value("RssAnon", pid: daemon.pid), let file = ProcessMemory.value("RssFile", pid: daemon.pid) {
            say("  of it after the load: anonymous (heap, stacks, caches) \(mib(anon)), file-backed (library code and data, "
                + "shared) \(mib(file))")
        }
        observation?.report(clients: observed, runs: main.runs, handler: main.handler)

        // 6. Stop, read the log, count what the database holds.
        let stop = daemon.stop()
        stopped = true
        say()
        say("daemon stop (SIGTERM → exit): \(fmt(stop.seconds * 1000)) ms, exit status \(stop.status)"
            + (stop.killed ? " (did not stop within 30 s: SIGKILL)" : ""))
        DaemonLog.summarize(daemon.logPath)
        let acknowledged = configurations.reduce(0) { $0 + $1.acknowledged } + (paced?.submission.run.acknowledged ?? 0)
        let unanswered = configurations.reduce(0) { $0 + $1.unanswered } + (paced?.submission.run.unanswered ?? 0)
        let stored = try Durability.count(databasePath: daemon.databasePath)
        say("durable: \(acknowledged) acknowledged, \(stored.symptomEntries) stored "
            + "(symptom_entries; \(unanswered) requests got no answer; evaluations \(stored.evaluations), "
            + "audit rows \(stored.auditRows))")
        let durable = Durability.consistent(stored: stored.symptomEntries, acknowledged: acknowledged, unanswered: unanswered)
        if !durable { say("DURABILITY MISMATCH: the database does not hold exactly the acknowledged submissions") }

        // 7. Goals, judged on the figures above.
        let peakBytes = peakKB * 1024
        say()
        say("goals (issue 3), \(observed) concurrent clients on loopback:")
        say("  throughput ≥ \(fmt(Self.goalRatio, 1))× single-commit ceiling (≥ \(fmt(Self.goalRatio * ceiling)) /s here): "
            + "\(fmt(ratio, 2))× (\(fmt(main.throughput.median)) /s) — \(verdict(ratio >= Self.goalRatio))")
        say("  p99 < \(fmt(Self.goalP99Ms)) ms: \(fmt(main.p99.median, 1)) ms (median of \(main.runs.count) runs) — "
            + verdict(main.p99.median < Self.goalP99Ms))
        say("  RSS < 64 MB: peak \(fmt(Double(peakBytes) / 1e6, 1)) MB — \(verdict(peakBytes < Self.goalRSSBytes))")
        say("  no errors under load: "
            + verdict(configurations.allSatisfy { $0.errors.isEmpty && $0.unanswered == 0 }))
        let cpu = observation?.daemonMicrosecondsPerSubmission
        let throughputGoal = min(Self.goalCeilingShare * ceiling, Self.goalThroughputCap)
        say("goals (issue 11), \(observed) concurrent clients, load generator on the same cores:")
        // The old goal (≤ 100 µs per submission) is retired: it lay below the HTTP stack's own
        // floor. The guard is now the submission's own work against a baseline's, measured in the
        // same run by scripts/bench-compare (≤ 1.10×, docs/product.md third round, settled R).
        say("  daemon CPU per acknowledged submission: "
            + (cpu.map { "\(fmt($0)) µs (a figure; the goal is scripts/bench-compare's ≤ 1.10× the baseline's own work)" }
               ?? "not observed"))
        // GET /healthz is the floor; a patient's GET /v1/me/today reads more than a submission
        // plans (the whole day's tasks and reminders), so it is only a comparison.
        if let probe = floor.first {
            say("    against the floor measured in this run, \(probe.name): \(fmt(probe.microsecondsPerRequest)) µs"
                + (cpu.map { " ⇒ the submission's own work \(fmt($0 - probe.microsecondsPerRequest)) µs" } ?? ""))
        }
        say("  throughput ≥ min(\(fmt(Self.goalCeilingShare, 1))× ceiling, \(fmt(Self.goalThroughputCap)) /s) (≥ \(fmt(throughputGoal)) /s here): "
            + "\(fmt(main.throughput.median)) /s — \(verdict(main.throughput.median >= throughputGoal))")
        say("  p99 < \(fmt(Self.goalP99Ms)) ms: \(fmt(main.p99.median, 1)) ms — \(verdict(main.p99.median < Self.goalP99Ms))")
        say("  nothing lost (every acknowledged submission stored once): \(verdict(durable))")
        status = durable && stop.status == 0 && !stop.killed ? 0 : 1
        return status
    }

    /// The repetitions of one client count, each printed as it ends.
    private func runConfiguration(clients: Int, daemon: DaemonProcess, pool: PatientPool, dates: [String],
                                  watch: Observation.Start?) throws -> ConfigurationResult {
        say()
        say("\(clients) client\(clients == 1 ? "" : "s"):")
        let before = try DaemonMetrics.fetch(port: daemon.port)
        var runs: [RunResult] = []
        for rep in 1...options.repetitions {
            let cursors = (0..<clients).map { i in
                ClientCursor(pool: pool, dates: dates, perDay: options.perDay, idPrefix: "c\(clients)r\(rep)i\(i)")
            }
            let r = LoadGenerator.run(port: daemon.port, cursors: cursors, warmup: options.warmupSeconds,
                                      duration: options.durationSeconds, midway: { watch?.sampleConnections() })
            runs.append(r)
            say(ConfigurationResult.line(r, rep, of: options.repetitions))
            if let body = r.firstErrorBody { say("    first error: \(body)") }
            try daemon.checkRunning()
        }
        let result = ConfigurationResult(clients: clients, runs: runs,
                                         handler: try DaemonMetrics.fetch(port: daemon.port).since(before))
        say(result.conclusion)
        return result
    }

    /// A new directory `bench-ingest.XXXXXX` under `parent`.
    static func temporaryDirectory(in parent: String) throws -> String {
        var template = Array((parent + "/bench-ingest.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("cannot create a directory in \(parent): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }
}
