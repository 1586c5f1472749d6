import HyponaTrackCore

/// A reminder as it is pushed (docs/product.md, W, and settled W): which of the day's reminders
/// (`key`, unique within the patient's local `date`), its kind and slot for the payload, when it
/// was due and when its slot ends — check and task reminders at the check's deadline; missed,
/// catch-up and nudge at the start of quiet hours. A push not sent by then is `expired`.
struct PushReminder: Sendable, Equatable {
    /// `check`, `task`, `missed`, `catch_up` (the planner's kinds) or `nudge`.
    var kind: String
    var date: LocalDate
    /// `morning` or `evening`: the deadline the reminder's tasks are due by.
    var slot: ReminderRules.Deadline
    var key: String
    var dueAt: Int64
    var expiresAt: Int64

    static let nudgeKind = "nudge"

    /// As stored (`push_deliveries`).
    init(kind: String, date: LocalDate, slot: ReminderRules.Deadline, key: String, dueAt: Int64, expiresAt: Int64) {
        self.kind = kind
        self.date = date
        self.slot = slot
        self.key = key
        self.dueAt = dueAt
        self.expiresAt = expiresAt
    }

    /// A planned reminder of `date`.
    init(_ reminder: Reminder, date: LocalDate, key: String, rules: ReminderRules, zone: ZoneRules) {
        kind = reminder.kind.rawValue
        self.date = date
        self.key = key
        // A reminder of the evening's tasks (or of both slots) is the evening's.
        slot = reminder.tasks.allSatisfy { rules.taskDeadlines[$0] == .morning } ? .morning : .evening
        dueAt = epochMilliseconds(reminder.at.epochSeconds)
        let end: LocalTime
        switch reminder.kind {
        case .check, .task: end = rules.deadlines[slot] ?? rules.quietFrom
        case .missed, .catchUp: end = rules.quietFrom
        }
        expiresAt = epochMilliseconds(Self.end(of: date, at: end, after: reminder.at, zone: zone).epochSeconds)
    }

    /// The silence nudge, due at `at` on `date`.
    init(nudgeAt at: Timestamp, date: LocalDate, key: String, rules: ReminderRules, zone: ZoneRules) {
        kind = Self.nudgeKind
        self.date = date
        self.key = key
        slot = at.localTime < (rules.deadlines[.morning] ?? rules.quietFrom) ? .morning : .evening
        dueAt = epochMilliseconds(at.epochSeconds)
        expiresAt = epochMilliseconds(Self.end(of: date, at: rules.quietFrom, after: at, zone: zone).epochSeconds)
    }

    /// `time` on `date`, or on the next day when that is not after `start` (quiet hours that
    /// begin after midnight).
    private static func end(of date: LocalDate, at time: LocalTime, after start: Timestamp, zone: ZoneRules) -> Timestamp {
        let end = zone.instant(on: date, at: time)
        return end.epochSeconds > start.epochSeconds ? end : zone.instant(on: date.adding(days: 1), at: time)
    }
}
