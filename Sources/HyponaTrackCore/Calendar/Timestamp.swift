/// An instant as the patient's device wrote it: ISO 8601 with a UTC offset
/// (`2026-03-09T08:05:00+01:00`). Keeps the offset, so the local date and wall-clock time the
/// patient saw are known, and the instant, so readings can be ordered and spaced.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let epochSeconds: Double
    /// Offset of the local time from UTC, in seconds.
    public let utcOffsetSeconds: Int

    public init(epochSeconds: Double, utcOffsetSeconds: Int) {
        self.epochSeconds = epochSeconds
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM)`. An offset is required: a time without one
    /// cannot be placed on the patient's day.
    public init?(_ text: String) {
        let b = Array(text.utf8)
        guard b.count >= 17, let date = LocalDate(bytes: b[0..<10]),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              b[13] == UInt8(ascii: ":"),
              let hour = LocalDate.digits(b[11..<13]), let minute = LocalDate.digits(b[14..<16]),
              hour < 24, minute < 60
        else { return nil }
        var i = 16
        var seconds = 0.0
        if i < b.count, b[i] == UInt8(ascii: ":") {
            guard i + 3 <= b.count, let s = LocalDate.digits(b[(i + 1)..<(i + 3)]), s < 60 else { return nil }
            seconds = Double(s)
            i += 3
            if i < b.count, b[i] == UInt8(ascii: ".") {
                var j = i + 1
                var fraction = 0.0, scale = 0.1
                while j < b.count, b[j] >= UInt8(ascii: "0"), b[j] <= UInt8(ascii: "9") {
                    fraction += Double(b[j] - UInt8(ascii: "0")) * scale
                    scale /= 10
                    j += 1
                }
                guard j > i + 1 else { return nil }
                seconds += fraction
                i = j
            }
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            guard i + 1 == b.count else { return nil }
        } else {
            guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), i + 6 == b.count, b[i + 3] == UInt8(ascii: ":"),
                  let oh = LocalDate.digits(b[(i + 1)..<(i + 3)]), let om = LocalDate.digits(b[(i + 4)..<(i + 6)]),
                  oh <= 14, om < 60
            else { return nil }
            offset = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
        }
        let local = Double(date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60) + seconds
        self.init(epochSeconds: local - Double(offset), utcOffsetSeconds: offset)
    }

    /// The calendar date on the device's clock when this was written.
    public var localDate: LocalDate {
        let local = Int((epochSeconds + Double(utcOffsetSeconds)).rounded(.down))
        return LocalDate(daysSinceEpoch: local.floorDiv(86_400))
    }

    /// The time of day on the device's clock when this was written, to the minute (seconds dropped).
    public var localTime: LocalTime {
        let local = Int((epochSeconds + Double(utcOffsetSeconds)).rounded(.down))
        let minute = (local - local.floorDiv(86_400) * 86_400) / 60
        return LocalTime(hour: minute / 60, minute: minute % 60)!
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.epochSeconds < b.epochSeconds }
    public static func == (a: Timestamp, b: Timestamp) -> Bool {
        a.epochSeconds == b.epochSeconds && a.utcOffsetSeconds == b.utcOffsetSeconds
    }

    /// ISO 8601 with the stored offset; seconds always, milliseconds only when present.
    public var description: String {
        // Round to whole milliseconds before splitting, so .9996 s carries into the next second
        // instead of printing as ".1000" (which would parse back as .1 s).
        let localMillis = Int(((epochSeconds + Double(utcOffsetSeconds)) * 1000).rounded())
        let whole = localMillis.floorDiv(1000)
        let millis = localMillis - whole * 1000
        let day = whole.floorDiv(86_400)
        let secondOfDay = whole - day * 86_400
        let date = LocalDate(daysSinceEpoch: day)
        guard (0...9999).contains(date.year), abs(utcOffsetSeconds) < 100 * 3600 else { return slowDescription(date, secondOfDay, millis) }
        return String(unsafeUninitializedCapacity: 29) { b in
            var w = DigitWriter(b)
            Self.writeDateAndTime(date, secondOfDay, to: &w)
            if millis > 0 {
                w.byte(UInt8(ascii: "."))
                w.digits(millis, 3)
            }
            if utcOffsetSeconds == 0 {
                w.byte(UInt8(ascii: "Z"))
            } else {
                let a = abs(utcOffsetSeconds)
                w.byte(utcOffsetSeconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                w.digits(a / 3600, 2)
                w.byte(UInt8(ascii: ":"))
                w.digits(a % 3600 / 60, 2)
            }
            return w.count
        }
    }
}

extension Timestamp {
    /// `2026-03-09T07:05:00.250Z`: UTC with milliseconds always (log lines, audit rows), the
    /// same text as `description` gives at offset 0 except that `.000` is written too.
    public static func utcText(milliseconds ms: Int64) -> String {
        let days = Int(ms).floorDiv(86_400_000)
        let inDay = Int(ms) - days * 86_400_000
        let date = LocalDate(daysSinceEpoch: days)
        guard (0...9999).contains(date.year) else {
            return "\(date)T\(LocalDate.pad(inDay / 3_600_000, 2)):\(LocalDate.pad(inDay / 60_000 % 60, 2)):"
                + "\(LocalDate.pad(inDay / 1000 % 60, 2)).\(LocalDate.pad(inDay % 1000, 3))Z"
        }
        return String(unsafeUninitializedCapacity: 24) { b in
            var w = DigitWriter(b)
            writeDateAndTime(date, inDay / 1000, to: &w)
            w.byte(UInt8(ascii: "."))
            w.digits(inDay % 1000, 3)
            w.byte(UInt8(ascii: "Z"))
            return w.count
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS`.
    private static func writeDateAndTime(_ date: LocalDate, _ secondOfDay: Int, to w: inout DigitWriter) {
        date.writeText(to: &w)
        w.byte(UInt8(ascii: "T"))
        w.digits(secondOfDay / 3600, 2)
        w.byte(UInt8(ascii: ":"))
        w.digits(secondOfDay % 3600 / 60, 2)
        w.byte(UInt8(ascii: ":"))
        w.digits(secondOfDay % 60, 2)
    }

    /// `description` for dates outside the years 0…9999 (which no parsed time has).
    private func slowDescription(_ date: LocalDate, _ secondOfDay: Int, _ millis: Int) -> String {
        var s = "\(date)T\(LocalDate.pad(secondOfDay / 3600, 2)):"
            + "\(LocalDate.pad(secondOfDay % 3600 / 60, 2)):\(LocalDate.pad(secondOfDay % 60, 2))"
        if millis > 0 { s += "." + LocalDate.pad(millis, 3) }
        if utcOffsetSeconds == 0 { return s + "Z" }
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        let a = abs(utcOffsetSeconds)
        return s + "\(sign)\(LocalDate.pad(a / 3600, 2)):\(LocalDate.pad(a % 3600 / 60, 2))"
    }
}

extension Int {
    /// Division rounding towards negative infinity.
    func floorDiv(_ d: Int) -> Int {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
