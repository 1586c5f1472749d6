import Foundation

/// A close look at one configuration's runs (the largest client count): where the time goes.
/// Cheap sources only: the daemon's `/metrics`, `/proc` (RSS, CPU per thread, machine CPU) and
/// this process's own CPU time.
struct Observation {
    let maxRSSKB: Int
    /// `hyponatrack_database_pending_writes` samples (10 Hz).
    let pendingWrites: [Double]
    /// Daemon CPU seconds per thread during the runs, busiest first.
    let daemonThreads: [(tid: Int, name: String, usage: ThreadCPU.Usage)]
    let daemonPid: Int32
    let loadGeneratorSeconds: Double
    let machineBusy: Double
    let wallSeconds: Double
    /// Per run, client connections per libmicrohttpd worker (busiest first), sampled mid-run.
    let connectionSpreads: [[Int]]
    /// 200s during the runs, warm-up included (the work the CPU figures paid for).
    let acknowledged: Int

    /// The state before the runs, and the samplers running during them.
    final class Start {
        let daemon: DaemonProcess
        let rss: RSSSampler
        let pending: PendingWritesSampler
        let threads: ThreadCPU
        let ownCPU: Double
        let system: SystemCPU
        let started: UInt64
        let idleEpoll: [Int: Int]
        private var spreads: [[Int]] = []

        init(daemon: DaemonProcess) {
            self.daemon = daemon
            threads = ThreadCPU.snapshot(pid: daemon.pid)
            ownCPU = OwnCPU.seconds()
            system = SystemCPU.snapshot()
            started = Monotonic.now()
            idleEpoll = EpollLoad.snapshot(pid: daemon.pid)
            rss = RSSSampler(pid: daemon.pid)
            pending = PendingWritesSampler(port: daemon.port)
        }

        /// Records how the current run's connections are spread over the daemon's workers.
        func sampleConnections() {
            spreads.append(EpollLoad.added(now: EpollLoad.snapshot(pid: daemon.pid), idle: idleEpoll))
        }

        /// Stops the samplers and takes the differences.
        func finish(acknowledged: Int) -> Observation {
            let wall = Monotonic.seconds(from: started, to: Monotonic.now())
            let maxRSS = rss.stop()
            let pendingSamples = pending.stop()
            return Observation(maxRSSKB: maxRSS, pendingWrites: pendingSamples,
                               daemonThreads: ThreadCPU.snapshot(pid: daemon.pid).since(threads), daemonPid: daemon.pid,
                               loadGeneratorSeconds: OwnCPU.seconds() - ownCPU,
                               machineBusy: SystemCPU.snapshot().busyFraction(since: system),
                               wallSeconds: wall, connectionSpreads: spreads, acknowledged: acknowledged)
        }
    }

    /// The daemon's CPU (all threads) per acknowledged submission, in µs, over the observed runs.
    var daemonMicrosecondsPerSubmission: Double {
        total(daemonThreads).seconds / Double(max(acknowledged, 1)) * 1e6
    }

    /// Of `daemonMicrosecondsPerSubmission`, the kernel's.
    var daemonKernelMicrosecondsPerSubmission: Double {
        total(daemonThreads).kernel / Double(max(acknowledged, 1)) * 1e6
    }

    /// Prints the breakdown; `handler` is the daemon's PUT histogram over the same runs.
    func report(clients: Int, runs: [RunResult], handler: DaemonMetrics) {
        say("where the time goes (\(clients)-client runs, \(fmt(wallSeconds, 1)) s wall incl. warm-up, \(acknowledged) acknowledged):")
        let handlerMean = handler.meanMs
        let clientMean = runs.map(\.meanLatencyMs).reduce(0, +) / Double(runs.count)
        say("  inside the daemon (PUT handler incl. waiting for its group commit; /metrics histogram): mean "
            + "\(fmt(handlerMean, 2)) ms over \(handler.count) requests; \(handler.bucketShares)")
        say("  seen by the clients: mean \(fmt(clientMean, 2)) ms → \(fmt(clientMean - handlerMean, 2)) ms per request "
            + "outside the handler (libmicrohttpd, loopback, load generator, scheduling)")
        if !pendingWrites.isEmpty {
            let mean = pendingWrites.reduce(0, +) / Double(pendingWrites.count)
            say("  write jobs queued for the single writer (hyponatrack_database_pending_writes, \(pendingWrites.count) samples at 10 Hz): "
                + "mean \(fmt(mean, 1)), max \(fmt(pendingWrites.max()!)) (of \(clients) clients)")
        }
        let n = Double(max(acknowledged, 1))
        func share(_ usage: ThreadCPU.Usage) -> String {
            "\(fmt(usage.seconds, 1)) s = \(fmt(100 * usage.seconds / wallSeconds))% of a core = \(fmt(usage.seconds / n * 1e6)) µs per submission"
                + " (kernel \(fmt(usage.kernel / n * 1e6)) µs); \(fmt(usage.voluntarySwitches / n, 2)) waits and "
            + "\(fmt(usage.preemptions / n, 2)) preemptions per submission"
        }
        say("  daemon CPU: \(share(total(daemonThreads)))")
        // The writer thread is named "sqlite-group-commit" by GroupCommitWriter; where that name
        // does not reach the kernel, it is the busiest thread that is neither main nor libmicrohttpd's.
        let writer = daemonThreads.first { $0.name.hasPrefix("sqlite-group") }
            ?? daemonThreads.first { $0.tid != Int(daemonPid) && !$0.name.hasPrefix("MHD") }
        if let writer {
            say("    writer thread (tid \(writer.tid), named \"\(writer.name)\"; runs every write job serially): \(share(writer.usage))"
                + " ⇒ at most ≈ \(fmt(n / writer.usage.seconds)) submissions/s from its CPU alone, fsync waits not counted")
        }
        let workers = daemonThreads.filter { $0.name.hasPrefix("MHD") }
        let busy = workers.filter { $0.usage.seconds >= 0.01 * wallSeconds }.count
        say("    libmicrohttpd workers (\(workers.count) threads, \(busy) of them above 1% of a core): " + share(total(workers)))
        if connectionSpreads.contains(where: { !$0.isEmpty }) {
            let runs = connectionSpreads.map { "[\($0.map(String.init).joined(separator: " "))]" }.joined(separator: ", ")
            say("    client connections per libmicrohttpd worker, per run (mid-run, from each worker's epoll set): \(runs) — "
                + "a worker serves its connections one request at a time, so those sharing one wait for each other's commits")
        }
        let others = daemonThreads.filter { t in t.tid != writer?.tid && !t.name.hasPrefix("MHD") }
        say("    other threads (\(others.count)): \(share(total(others)))")
        say("  load generator (this process) CPU \(fmt(loadGeneratorSeconds, 1)) s; machine busy \(fmt(100 * machineBusy))% "
            + "of \(MachineInfo.cores) cores (all processes, other users' included)")
    }

    private func total(_ threads: [(tid: Int, name: String, usage: ThreadCPU.Usage)]) -> ThreadCPU.Usage {
        threads.reduce(ThreadCPU.Usage(user: 0, kernel: 0)) {
            ThreadCPU.Usage(user: $0.user + $1.usage.user, kernel: $0.kernel + $1.usage.kernel,
                            voluntarySwitches: $0.voluntarySwitches + $1.usage.voluntarySwitches,
                            preemptions: $0.preemptions + $1.usage.preemptions)
        }
    }
}
