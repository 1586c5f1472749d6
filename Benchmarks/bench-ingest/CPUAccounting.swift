import Foundation

/// CPU time of a process's threads, grouped by thread name, from `/proc/<pid>/task/*/stat`:
/// user and kernel (system) time apart, so a report can say how much of the daemon's CPU is
/// system calls (sends, epoll, WAL writes, futex wake-ups) rather than its own code.
struct ThreadCPU {
    /// One thread's CPU seconds, and how often it gave up the CPU: waiting (a lock, a futex,
    /// a poll: voluntary) or preempted (nonvoluntary). Wake-ups between threads cost kernel
    /// time and cache warmth that an instruction count does not show.
    struct Usage {
        var user: Double
        var kernel: Double
        var voluntarySwitches: Double = 0
        var preemptions: Double = 0
        var seconds: Double { user + kernel }
    }

    /// Thread id → (name, usage).
    let threads: [Int: (name: String, usage: Usage)]

    static func snapshot(pid: Int32) -> ThreadCPU {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var threads: [Int: (String, Usage)] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            guard let tid = Int(task), let stat = ProcFile.read("/proc/\(pid)/task/\(task)/stat"),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let name = String(stat[stat.index(after: open)..<close])
            // Fields after the name: state is field 3, utime 14, stime 15 (proc(5)).
            let rest = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard rest.count > 12, let user = Double(rest[11]), let system = Double(rest[12]) else { continue }
            let switches = Self.switches(ProcFile.read("/proc/\(pid)/task/\(task)/status") ?? "")
            threads[tid] = (name, Usage(user: user / ticks, kernel: system / ticks, voluntarySwitches: switches.voluntary,
                                        preemptions: switches.nonvoluntary))
        }
        return ThreadCPU(threads: threads)
    }

    /// `voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches` of a `status` file (proc(5)).
    static func switches(_ status: String) -> (voluntary: Double, nonvoluntary: Double) {
        var out = (voluntary: 0.0, nonvoluntary: 0.0)
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":")
            guard parts.count == 2, let n = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            if parts[0] == "voluntary_ctxt_switches" { out.voluntary = n } else if parts[0] == "nonvoluntary_ctxt_switches" { out.nonvoluntary = n }
        }
        return out
    }

    /// CPU of each thread between `earlier` and `self` (threads that ended in between are
    /// missed), busiest first.
    func since(_ earlier: ThreadCPU) -> [(tid: Int, name: String, usage: Usage)] {
        threads.map { tid, now in
            let before = earlier.threads[tid]?.usage ?? Usage(user: 0, kernel: 0)
            return (tid, now.name, Usage(user: now.usage.user - before.user, kernel: now.usage.kernel - before.kernel,
                                         voluntarySwitches: now.usage.voluntarySwitches - before.voluntarySwitches,
                                         preemptions: now.usage.preemptions - before.preemptions))
        }
        .sorted { $0.usage.seconds > $1.usage.seconds }
    }
}

/// Whole-machine CPU use from the first line of `/proc/stat` (every process, other users' too).
struct SystemCPU {
    let busy: Double
    let total: Double

    static func snapshot() -> SystemCPU {
        let line = (ProcFile.read("/proc/stat") ?? "").split(separator: "\n").first ?? ""
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard values.count >= 5 else { return SystemCPU(busy: 0, total: 0) }
        let idle = values[3] + values[4]  // idle + iowait
        let total = values.prefix(8).reduce(0, +)  // guest time is already in user
        return SystemCPU(busy: total - idle, total: total)
    }

    /// The busy fraction of all cores between `earlier` and `self`.
    func busyFraction(since earlier: SystemCPU) -> Double {
        let total = self.total - earlier.total
        return total > 0 ? (busy - earlier.busy) / total : 0
    }
}

/// CPU seconds (user + system) this benchmark process has used: the load generator's cost.
enum OwnCPU {
    static func seconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return s(usage.ru_utime) + s(usage.ru_stime)
    }
}

/// How a process's epoll instances are loaded: the number of file descriptors registered with
/// each, from `/proc/<pid>/fdinfo` ("tfd:" lines). Each libmicrohttpd polling thread (a daemon
/// of its own) has its own epoll instance, so the difference to an idle snapshot is the number
/// of client connections each one serves.
enum EpollLoad {
    /// epoll fd → registered fds.
    static func snapshot(pid: Int32) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        for name in fds {
            guard let fd = Int(name),
                  (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(name)")) == "anon_inode:[eventpoll]",
                  let info = ProcFile.read("/proc/\(pid)/fdinfo/\(name)") else { continue }
            counts[fd] = info.split(separator: "\n").filter { $0.hasPrefix("tfd:") }.count
        }
        return counts
    }

    /// Per epoll instance, the fds added since `idle`; the non-zero ones, largest first.
    static func added(now: [Int: Int], idle: [Int: Int]) -> [Int] {
        now.map { $0.value - (idle[$0.key] ?? 0) }.filter { $0 > 0 }.sorted(by: >)
    }
}
