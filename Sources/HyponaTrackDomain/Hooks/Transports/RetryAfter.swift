/// The `Retry-After` header (RFC 9110 §10.2.3): `delay-seconds` or an `HTTP-date`.
enum RetryAfter {
    /// Seconds to wait from `now` (Unix seconds), or nil when the value is neither form. A date
    /// in the past means "now" (0). All three HTTP-date forms are read, as RFC 9110 §5.6.7 asks
    /// of recipients: IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850
    /// `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994`.
    static func seconds(_ value: String, now: Int64) -> Double? {
        let text = trimmed(value)
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // delay-seconds = 1*DIGIT; an absurdly long one saturates rather than failing.
            return text.utf8.count > 12 ? 1e12 : Double(text)
        }
        guard let date = httpDate(text) else { return nil }
        return Double(max(0, date - now))
    }

    /// Unix seconds of an HTTP-date, or nil.
    static func httpDate(_ text: String) -> Int64? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT" {
            // IMF-fixdate: day-name "," SP day SP month SP year SP time SP "GMT"
            return civil(year: Int(parts[3]), month: month(parts[2]), day: Int(parts[1]), time: parts[4])
        }
        if parts.count == 4, parts[0].hasSuffix(","), parts[3] == "GMT" {
            // RFC 850: day-name-l "," SP date2 (DD-Mon-YY) SP time SP "GMT"; a two-digit year
            // more than 50 years ahead is in the past century (RFC 9110 §5.6.7).
            let date = parts[1].split(separator: "-").map(String.init)
            guard date.count == 3, date[2].count == 2, let yy = Int(date[2]) else { return nil }
            var year = 2000 + yy
            if year > currentCenturyPivot { year -= 100 }
            return civil(year: year, month: month(date[1]), day: Int(date[0]), time: parts[2])
        }
        if parts.count == 5 {
            // asctime: day-name SP month SP ( 2DIGIT / ( SP DIGIT )) SP time SP year
            return civil(year: Int(parts[4]), month: month(parts[1]), day: Int(parts[2]), time: parts[3])
        }
        return nil
    }

    private static func trimmed(_ value: String) -> String {
        var text = Substring(value)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return String(text)
    }

    /// Two-digit years up to this are read as 20YY, later ones as 19YY (50 years ahead of 2026).
    private static let currentCenturyPivot = 2076

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func month(_ name: String) -> Int? {
        months.firstIndex(of: name).map { $0 + 1 }
    }

    private static func civil(year: Int?, month: Int?, day: Int?, time: String) -> Int64? {
        let clock = time.split(separator: ":").map { Int($0) }
        guard let year, let month, let day, (1...31).contains(day), (1900...9999).contains(year),
              clock.count == 3, let h = clock[0], let m = clock[1], let s = clock[2],
              (0...23).contains(h), (0...59).contains(m), (0...60).contains(s)
        else { return nil }
        return daysFromCivil(year: year, month: month, day: day) * 86_400 + Int64(h * 3600 + m * 60 + s)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64((month + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
