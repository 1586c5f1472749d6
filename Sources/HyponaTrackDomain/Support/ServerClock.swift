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
    // Civil-date arithmetic written into the string's storage, not `Calendar`: this stamps
    // every log line and audit row.
    Timestamp.utcText(milliseconds: ms)
}
