import Foundation

/// Where the benchmark ran: cores, CPU model, kernel, the filesystem under the data, the date
/// and the load average (the machine may be shared).
enum MachineInfo {
    static var cores: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    static var cpuModel: String {
        let text = ProcFile.read("/proc/cpuinfo") ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            return line.split(separator: ":", maxSplits: 1).last.map { Substring($0).trimmingSpaces() } ?? "?"
        }
        return "?"
    }

    static var kernel: String {
        var names = utsname()
        uname(&names)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        }
        return "\(field(names.sysname)) \(field(names.release))"
    }

    /// The 1, 5 and 15-minute load averages from `/proc/loadavg`.
    static var loadAverage: String {
        (ProcFile.read("/proc/loadavg") ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The mount holding `path` (longest matching mount point in `/proc/mounts`): device,
    /// mount point, filesystem type and options.
    static func filesystem(of path: String) -> String {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best: (point: String, line: String) = ("", "unknown")
        for line in (ProcFile.read("/proc/mounts") ?? "").split(separator: "\n") {
            let f = line.split(separator: " ")
            guard f.count >= 4 else { continue }
            let point = String(f[1])
            let inside = point == "/" || resolved == point || resolved.hasPrefix(point + "/")
            if inside && point.count >= best.point.count {
                best = (point, "\(f[2]) on \(f[0]) mounted at \(point) (\(f[3]))")
            }
        }
        return best.line
    }

    static var utcNow: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm'Z'"
        return formatter.string(from: Date())
    }
}
