/// How far the team has handled a patient's alerts, as the ward board shows it (docs/product.md,
/// third round, "Ward board" and "C — wording"): from `new` (nobody has acknowledged it) to
/// `resolved`. The cases are in that order, so the least-handled of several alerts is the
/// smallest; "new data since acknowledged" (a day joined an acknowledged alert) counts as
/// unhandled.
public enum BoardHandling: String, Sendable, CaseIterable, Comparable {
    case new
    case newDataSinceAcknowledged = "new-data"
    case acknowledged
    case contacted
    case resolved

    /// One alert's handling: a resolved alert is resolved; an open one (never acknowledged, or
    /// worsened since) is new; an acknowledged one is "new data" when a day joined it since,
    /// else contacted when someone tried to reach the patient about it, else acknowledged.
    public init(resolved: Bool, acknowledged: Bool, newDataSinceAcknowledged: Bool, contacted: Bool) {
        if resolved { self = .resolved }
        else if !acknowledged { self = .new }
        else if newDataSinceAcknowledged { self = .newDataSinceAcknowledged }
        else if contacted { self = .contacted }
        else { self = .acknowledged }
    }

    /// Acknowledged, contacted or resolved: someone has it in hand.
    public var isHandled: Bool { self >= .acknowledged }

    private var order: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (a: BoardHandling, b: BoardHandling) -> Bool { a.order < b.order }
}

extension WardBoardRules {
    /// With several alerts the least-handled decides the board's state; nil: no alert at all.
    public static func handling(of alerts: [BoardHandling]) -> BoardHandling? { alerts.min() }

    /// Whether a resolved alert answers for the current `level` (docs/product.md, third round,
    /// "Ward board": `resolved` says who resolved the current run, and when): it belongs to the
    /// current run at that level — it held that level or worse and its days reach into the run
    /// (`runSince`, the run's first day, `since` without an alert), or it was resolved during
    /// the run (its resolver saw the run's data: a sodium typed at resolve is evaluated but opens
    /// no alert of its own). A resolved alert of an earlier episode answers for nothing, so
    /// today's red with no alert open stays unhandled. Nil `runSince`: the latest evaluated day is
    /// below `level`, so there is no run for a resolved alert to belong to.
    public static func resolvedAlertHandles(level: Level, runSince: LocalDate?, alertLevel: Level, alertLastDay: LocalDate,
                                            resolvedOn: LocalDate) -> Bool {
        guard let runSince else { return false }
        return (alertLevel >= level && alertLastDay >= runSince) || resolvedOn >= runSince
    }

    /// Where a row sorts: unhandled red, unhandled yellow, handled red, handled yellow, green,
    /// no data (a red or yellow level without any alert counts as unhandled). Ties sort as
    /// before: the highest POD first, then by study ID.
    public static func rank(level: Level?, handling: BoardHandling?) -> Int {
        let handled = handling?.isHandled ?? false
        switch level {
        case .red?: return handled ? 2 : 0
        case .yellow?: return handled ? 3 : 1
        case .green?, .info?: return 4
        case nil: return 5
        }
    }

    /// The first day of the current run at `level`: the first day of the unresolved alert at
    /// that level or worse (`alertFirstDay`), else the first day of the run of evaluated days at
    /// or above `level` that ends with the latest (a day without an evaluation is not in
    /// `evaluated` and does not break the run). Nil when the latest evaluated day is below `level`.
    public static func since(level: Level, alertFirstDay: LocalDate?, evaluated: [LocalDate: Level]) -> LocalDate? {
        if let alertFirstDay { return alertFirstDay }
        var first: LocalDate?
        for date in evaluated.keys.sorted(by: >) {
            guard evaluated[date]! >= level else { break }
            first = date
        }
        return first
    }
}
