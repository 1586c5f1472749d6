import Foundation
import HyponaTrackCore

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
    // Civil-date arithmetic (`LocalDate`), not `Calendar`: this stamps every log line and
    // audit row, and a Foundation calendar per call cost more than the rest of the line.
    let perDay: Int64 = 86_400_000
    let days = ms >= 0 ? ms / perDay : -((-ms + perDay - 1) / perDay)
    let inDay = Int(ms - days * perDay)
    let date = LocalDate(daysSinceEpoch: Int(days))
    func pad(_ v: Int, _ w: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s }
    return "\(date)T\(pad(inDay / 3_600_000, 2)):\(pad(inDay / 60_000 % 60, 2)):\(pad(inDay / 1000 % 60, 2)).\(pad(inDay % 1000, 3))Z"
}
