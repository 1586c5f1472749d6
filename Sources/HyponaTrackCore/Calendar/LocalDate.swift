/// A calendar date without a time zone (a patient's local day, a surgery date).
/// Day arithmetic uses the proleptic Gregorian calendar (Hinnant's days-from-civil algorithm),
/// so it needs no `Calendar` and no clock.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Nil when the components do not name a real date (2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...LocalDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?(_ text: String) {
        self.init(bytes: Array(text.utf8)[...])
    }

    /// Parses exactly `YYYY-MM-DD` from UTF-8 bytes.
    init?(bytes b: ArraySlice<UInt8>) {
        let o = b.startIndex
        guard b.count == 10, b[o + 4] == UInt8(ascii: "-"), b[o + 7] == UInt8(ascii: "-"),
              let y = LocalDate.digits(b[o..<(o + 4)]), let m = LocalDate.digits(b[(o + 5)..<(o + 7)]),
              let d = LocalDate.digits(b[(o + 8)..<(o + 10)])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    public init(daysSinceEpoch z0: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    public var description: String {
        guard (0...9999).contains(year) else { return "\(LocalDate.pad(year, 4))-\(LocalDate.pad(month, 2))-\(LocalDate.pad(day, 2))" }
        return String(unsafeUninitializedCapacity: 10) { b in
            var w = DigitWriter(b)
            writeText(to: &w)
            return w.count
        }
    }

    /// `YYYY-MM-DD` (the year in 0…9999).
    func writeText(to w: inout DigitWriter) {
        w.digits(year, 4)
        w.byte(UInt8(ascii: "-"))
        w.digits(month, 2)
        w.byte(UInt8(ascii: "-"))
        w.digits(day, 2)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        var v = 0
        for b in bytes {
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
            v = v * 10 + Int(b - UInt8(ascii: "0"))
        }
        return v
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}

/// Writes ASCII into a string's fresh storage (`String(unsafeUninitializedCapacity:)`): dates
/// and times are printed for every stored item, so without an intermediate array.
struct DigitWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    mutating func byte(_ b: UInt8) {
        buffer[count] = b
        count += 1
    }

    /// `v` (0 ≤ v < 10^width) zero-padded to exactly `width` digits.
    mutating func digits(_ v: Int, _ width: Int) {
        var rest = v
        for i in stride(from: count + width - 1, through: count, by: -1) {
            buffer[i] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += width
    }
}
