/// The traffic light (docs/clinical-rules.md, "Levels"): green = routine monitoring, yellow = the clinic
/// calls back the same day, red = present to the emergency department now. `info` is only a
/// reason level (reported, changes nothing), never a day's level.
public enum Level: String, Sendable, Comparable, CaseIterable {
    case info, green, yellow, red

    private var rank: Int {
        switch self {
        case .info: return 0
        case .green: return 1
        case .yellow: return 2
        case .red: return 3
        }
    }

    public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
}
