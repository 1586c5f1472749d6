import Foundation

/// Turns a patient's local wall-clock time into an instant and back, with the IANA time-zone
/// rules (from the system's tz database via Foundation; no clock is read here).
///
/// docs/clinical-rules.md §7: a time inside a spring-forward gap moves forward by the gap
/// (02:30 → 03:30); a time inside a fall-back overlap means its first occurrence.
public struct ZoneRules: Sendable {
    public let identifier: String
    private let zone: TimeZone

    /// Nil for an identifier the tz database does not know.
    public init?(identifier: String) {
        guard !identifier.isEmpty, let zone = TimeZone(identifier: identifier) else { return nil }
        self.identifier = identifier
        self.zone = zone
    }

    /// The UTC offset in force at an instant, in seconds.
    public func offset(atEpochSeconds t: Double) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: t))
    }

    /// The local date at an instant.
    public func localDate(atEpochSeconds t: Double) -> LocalDate {
        let local = Int((t + Double(offset(atEpochSeconds: t))).rounded(.down))
        return LocalDate(daysSinceEpoch: local.floorDiv(86_400))
    }

    /// The timestamp (with the zone's offset) of an instant.
    public func timestamp(atEpochSeconds t: Double) -> Timestamp {
        Timestamp(epochSeconds: t, utcOffsetSeconds: offset(atEpochSeconds: t))
    }

    /// The instant at which the local clock shows `time` on `date`, resolving DST gaps and overlaps.
    public func instant(on date: LocalDate, at time: LocalTime) -> Timestamp {
        let wall = Double(date.daysSinceEpoch * 86_400 + time.minuteOfDay * 60)
        // Offsets in force around this wall time: at most two distinct ones near a transition.
        let before = offset(atEpochSeconds: wall - 86_400)
        let after = offset(atEpochSeconds: wall + 86_400)
        var candidates: [Double] = []
        for o in Set([before, after, offset(atEpochSeconds: wall)]) {
            let t = wall - Double(o)
            if offset(atEpochSeconds: t) == o { candidates.append(t) }
        }
        if let first = candidates.min() {   // overlap: the first occurrence
            return timestamp(atEpochSeconds: first)
        }
        // Gap: read the wall time with the offset in force before the transition, which lands
        // exactly `gap` later on the new clock (02:30 CET → 01:30Z → 03:30 CEST).
        return timestamp(atEpochSeconds: wall - Double(before))
    }
}
