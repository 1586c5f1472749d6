/// What the ward board says about a patient beside the light (docs/product.md, "The clinician
/// console", "Console and sessions" and "Settled details"): where the patient stands (not
/// activated, flagged after 24 hours; before, in or after monitoring; withdrawn), whether the
/// board lists them, and which of yesterday's and today's checks are past their deadline and
/// not complete. Pure, like `MissingDataDetector` beside it: the server reads the store and the
/// clock once per board and these rules decide every row from the values, at that one instant.
public struct WardBoardRules: Sendable {
    public enum Status: String, Sendable {
        /// Enrolled, no activation yet (`overdue`: for more than 24 hours).
        case notActivated, activationOverdue
        case beforeMonitoring, monitoring, finished, withdrawn

        /// Whether the board lists the patient without `all`: finished and withdrawn patients
        /// are no longer there to watch (only counted as hidden).
        public var isWatched: Bool { self != .finished && self != .withdrawn }
    }

    public struct MissingCheck: Sendable, Equatable {
        /// 0 today, 1 yesterday.
        public var daysAgo: Int
        public var slot: ReminderRules.Deadline
    }

    /// What the rules know of one patient. Times are epoch milliseconds, as the store keeps
    /// them, so the 24-hour flag compares exactly what was stored.
    public struct Patient: Sendable {
        public var withdrawn: Bool
        public var enrolledAtMs: Int64
        public var activatedAtMs: Int64?
        /// The patient's monitoring window, complete at least as far as it decides `today`
        /// (the extension only moves the end, so the window without it serves every date it holds).
        public var window: MonitoringWindow
        public var zone: ZoneRules
        /// The local date in `zone` at the board's instant.
        public var today: LocalDate

        public init(withdrawn: Bool, enrolledAtMs: Int64, activatedAtMs: Int64?, window: MonitoringWindow,
                    zone: ZoneRules, today: LocalDate) {
            self.withdrawn = withdrawn
            self.enrolledAtMs = enrolledAtMs
            self.activatedAtMs = activatedAtMs
            self.window = window
            self.zone = zone
            self.today = today
        }
    }

    /// How long after enrolment a patient not yet activated is flagged (docs/product.md,
    /// "Console and sessions": "not activated 24 h after enrolment").
    public static let activationGraceMs: Int64 = 24 * 3600 * 1000

    public let reminders: ReminderRules

    public init(reminders: ReminderRules) { self.reminders = reminders }

    /// Where the patient stands at `now` (epoch seconds). Withdrawal wins; an ended window comes
    /// before activation, so a never-activated patient whose window is over is not on the board
    /// to watch (docs/product.md, "Console details").
    public func status(of p: Patient, now: Double) -> Status {
        if p.withdrawn { return .withdrawn }
        if p.today > p.window.last { return .finished }
        guard p.activatedAtMs != nil else {
            return Int64(now * 1000) - p.enrolledAtMs > Self.activationGraceMs ? .activationOverdue : .notActivated
        }
        return p.today < p.window.first ? .beforeMonitoring : .monitoring
    }

    /// The checks of yesterday and today (in that order, morning before evening) whose deadline
    /// passed by `now`, came after the activation, and which are not complete: `completed` holds
    /// the slots complete on each date (a check: its weight and a symptom entry of its slot, as
    /// `DailyEntry.morningCheckComplete` says). Only a patient in monitoring has any; a date
    /// outside the window has none.
    public func missingChecks(of p: Patient, completed: [LocalDate: Set<ReminderRules.Deadline>], now: Double) -> [MissingCheck] {
        guard status(of: p, now: now) == .monitoring, let activated = p.activatedAtMs else { return [] }
        var missing: [MissingCheck] = []
        for daysAgo in [1, 0] {
            let date = p.today.adding(days: -daysAgo)
            guard p.window.contains(date) else { continue }
            let done = completed[date] ?? []
            for slot in ReminderRules.Deadline.allCases {
                guard let time = reminders.deadlines[slot] else { continue }
                let due = p.zone.instant(on: date, at: time).epochSeconds
                guard due <= now, due * 1000 > Double(activated) else { continue }
                if !done.contains(slot) { missing.append(MissingCheck(daysAgo: daysAgo, slot: slot)) }
            }
        }
        return missing
    }
}
