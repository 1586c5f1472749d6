/// A wall-clock time of day, `HH:MM`, as configured for reminders and deadlines.
/// `24:00` is allowed and means the end of the day.
public struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let minuteOfDay: Int

    public init?(hour: Int, minute: Int) {
        guard (0...24).contains(hour), (0...59).contains(minute), hour * 60 + minute <= 1440 else { return nil }
        minuteOfDay = hour * 60 + minute
    }

    public init?(_ text: String) {
        let b = Array(text.utf8)
        guard b.count == 5, b[2] == UInt8(ascii: ":"),
              let h = LocalDate.digits(b[0..<2]), let m = LocalDate.digits(b[3..<5]) else { return nil }
        self.init(hour: h, minute: m)
    }

    public var hour: Int { minuteOfDay / 60 }
    public var minute: Int { minuteOfDay % 60 }

    public static func < (a: LocalTime, b: LocalTime) -> Bool { a.minuteOfDay < b.minuteOfDay }
    public var description: String { "\(LocalDate.pad(hour, 2)):\(LocalDate.pad(minute, 2))" }
}
