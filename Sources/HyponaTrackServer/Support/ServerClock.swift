import Foundation

/// The daemon's source of "now". Everything time-dependent takes one, so tests can pin time.
public protocol ServerClock: Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    func now() -> Double
}

/// The system clock.
public struct SystemClock: ServerClock {
    public init() {}
    public func now() -> Double { Date().timeIntervalSince1970 }
}

/// Milliseconds since the epoch, as stored in `*_at` columns.
public func epochMilliseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }

/// ISO 8601 UTC with milliseconds, as shown in the API and the audit trail.
public func iso8601UTC(milliseconds ms: Int64) -> String {
    let seconds = Double(ms) / 1000
    let date = Date(timeIntervalSince1970: seconds)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    let millis = Int(((ms % 1000) + 1000) % 1000)
    func pad(_ v: Int, _ w: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s }
    return "\(pad(c.year!, 4))-\(pad(c.month!, 2))-\(pad(c.day!, 2))T\(pad(c.hour!, 2)):\(pad(c.minute!, 2)):\(pad(c.second!, 2)).\(pad(millis, 3))Z"
}
