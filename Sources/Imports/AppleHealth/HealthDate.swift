import HyponaTrackCore

/// The Health export's date format, exactly: `2026-11-20 07:10:00 +0100` (date, time to the
/// second, numeric UTC offset without a colon). Anything else is refused, never guessed.
public enum HealthDate {
    /// The instant in epoch seconds, nil when the text is not in the format.
    public static func epochSeconds(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard b.count == 25, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x20,
              b[20] == 0x2B || b[20] == 0x2D,
              let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
              let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2),
              let oh = digits(b, 21, 2), let om = digits(b, 23, 2),
              hour < 24, minute < 60, second < 60, oh <= 14, om < 60,
              let date = LocalDate(year: year, month: month, day: day)
        else { return nil }
        let offset = (oh * 3600 + om * 60) * (b[20] == 0x2D ? -1 : 1)
        return date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second - offset
    }

    public static func epochSeconds(_ text: String) -> Int? {
        var t = text
        return t.withUTF8 { epochSeconds($0) }
    }

    @inline(__always)
    static func digits(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> Int? {
        var v = 0
        for i in at..<(at + count) {
            let d = Int(b[i]) &- 48
            guard d >= 0, d <= 9 else { return nil }
            v = v * 10 + d
        }
        return v
    }
}

/// The patient's local clock for many instants in a row: the zone's offset, looked up once per
/// hour of the timeline rather than once per record (Foundation's zone lookup costs far more
/// than the rest of a record).
struct LocalClock {
    let zone: ZoneRules
    private var cache: [Int: Int] = [:]
    private static let transition = Int.min

    init(zone: ZoneRules) { self.zone = zone }

    /// Seconds since the epoch on the local wall clock (its day is `floor(/86400)`).
    mutating func wall(_ epoch: Int) -> Int {
        let hour = epoch >= 0 ? epoch / 3600 : (epoch - 3599) / 3600
        if let o = cache[hour], o != Self.transition { return epoch + o }
        // An hour whose start and end share an offset has no transition inside it (offsets
        // change at most once an hour); one that holds a transition is looked up per instant.
        if cache[hour] == nil {
            let a = zone.offset(atEpochSeconds: Double(hour * 3600)), b = zone.offset(atEpochSeconds: Double(hour * 3600 + 3599))
            if cache.count > 100_000 { cache.removeAll(keepingCapacity: true) }
            cache[hour] = a == b ? a : Self.transition
            if a == b { return epoch + a }
        }
        return epoch + zone.offset(atEpochSeconds: Double(epoch))
    }

    mutating func localDate(_ epoch: Int) -> LocalDate { LocalDate(daysSinceEpoch: Self.floorDiv(wall(epoch), 86_400)) }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
