/// How hard the app nudges the patient today (docs/clinical-rules.md §7).
public enum ReminderIntensity: String, Sendable, CaseIterable, Comparable {
    case minimal, normal, elevated, maximal

    private var rank: Int { ReminderIntensity.allCases.firstIndex(of: self)! }
    public static func < (a: ReminderIntensity, b: ReminderIntensity) -> Bool { a.rank < b.rank }
}

/// One reminder of the day: when, what kind, which open tasks it lists.
public struct Reminder: Sendable, Equatable {
    public enum Kind: String, Sendable { case check, task, missed, catchUp = "catch_up" }

    public var at: Timestamp
    /// The configured local time it was planned for (before DST resolution).
    public var localTime: LocalTime
    public var kind: Kind
    public var tasks: [CareTask]
}

/// The day's intensity and reminders, in time order.
public struct ReminderPlan: Sendable, Equatable {
    public var date: LocalDate
    public var intensity: ReminderIntensity
    public var reminders: [Reminder]
}
