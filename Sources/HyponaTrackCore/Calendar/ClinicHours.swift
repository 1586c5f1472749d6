/// When the clinic telephones patients (`app.clinicHours`, e.g. `Mo-Fr 08:00-16:00`): the days
/// `Mo Tu We Th Fr Sa Su` as ranges and commas, then one time range, wall-clock times in the
/// study's zone; several groups are separated by `;` (`Mo-Fr 08:00-16:00; Sa 09:00-12:00`).
/// Public holidays are not known. Used to tell a patient with a yellow light when the clinic will
/// call (docs/product.md, W): today until the closing time, later today, or the next working day.
public struct ClinicHours: Sendable, Equatable, CustomStringConvertible {
    public struct Span: Sendable, Equatable {
        /// 0 = Monday … 6 = Sunday.
        public var weekdays: Set<Int>
        public var opens: LocalTime
        public var closes: LocalTime
    }

    public static let dayNames = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

    public let spans: [Span]
    /// As configured.
    public let description: String

    /// What the clinic can promise a patient who turned yellow at a moment (clinic's wall clock).
    public enum Call: Sendable, Equatable {
        /// Open now: a call today until `until`.
        case today(until: LocalTime)
        /// Opens later today.
        case laterToday(from: LocalTime, until: LocalTime)
        /// Closed for the rest of today: the next day with hours.
        case nextWorkingDay(LocalDate, from: LocalTime)
    }

    /// 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday).
    public static func weekday(_ date: LocalDate) -> Int { ((date.daysSinceEpoch + 3) % 7 + 7) % 7 }

    /// Reads `text`, or says what is wrong with it (the configuration reader names the key).
    public static func parse(_ text: String) -> Result<ClinicHours, ClinicHoursError> {
        let expected = "expected days and hours such as \"Mo-Fr 08:00-16:00\" (days Mo Tu We Th Fr Sa Su, ranges and commas; groups separated by ;)"
        var spans: [Span] = []
        for group in text.split(separator: ";") {
            let parts = group.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, let days = weekdays(parts[0]) else { return .failure(ClinicHoursError(expected)) }
            let times = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard times.count == 2, let opens = LocalTime(String(times[0])), let closes = LocalTime(String(times[1])) else {
                return .failure(ClinicHoursError(expected))
            }
            guard opens < closes else { return .failure(ClinicHoursError("\(group.trimmingCharacters()): the opening time must be before the closing time")) }
            spans.append(Span(weekdays: days, opens: opens, closes: closes))
        }
        guard !spans.isEmpty else { return .failure(ClinicHoursError(expected)) }
        return .success(ClinicHours(spans: spans, description: text))
    }

    /// `Mo-Fr`, `Mo,We,Fr`, `Mo-We,Sa`; nil for anything else (a range must run forwards).
    static func weekdays(_ text: Substring) -> Set<Int>? {
        var days: Set<Int> = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = piece.split(separator: "-", omittingEmptySubsequences: false).map { dayNames.firstIndex(of: String($0)) }
            guard (1...2).contains(ends.count), let first = ends.first ?? nil, let last = ends.last ?? nil, first <= last else { return nil }
            days.formUnion(first...last)
        }
        return days
    }

    /// The call a patient can be promised at `time` on `date` (the clinic's wall clock). Always
    /// finds a day: every configuration has at least one day with hours.
    public func call(on date: LocalDate, at time: LocalTime) -> Call {
        let today = spans.filter { $0.weekdays.contains(Self.weekday(date)) }.sorted { $0.opens < $1.opens }
        if let open = today.first(where: { $0.opens <= time && time < $0.closes }) { return .today(until: open.closes) }
        if let later = today.first(where: { time < $0.opens }) { return .laterToday(from: later.opens, until: later.closes) }
        for ahead in 1...7 {
            let day = date.adding(days: ahead)
            if let first = spans.filter({ $0.weekdays.contains(Self.weekday(day)) }).map(\.opens).min() {
                return .nextWorkingDay(day, from: first)
            }
        }
        return .nextWorkingDay(date.adding(days: 7), from: spans[0].opens)
    }
}

/// Why a clinic-hours text cannot be used.
public struct ClinicHoursError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

private extension Substring {
    func trimmingCharacters() -> String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
