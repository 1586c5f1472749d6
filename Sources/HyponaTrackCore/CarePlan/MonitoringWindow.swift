/// The local dates a patient is monitored (docs/clinical-rules.md §6): POD 1–14 by default, extended to
/// POD 21 for some histologies or when a yellow/red occurred on POD ≥ 10; ends early on withdrawal.
public struct MonitoringWindow: Sendable, Equatable {
    public var first: LocalDate
    /// The last monitored date (inclusive). Before `first` when withdrawal came before monitoring began.
    public var last: LocalDate
    public var extended: Bool
    public var withdrawn: Bool

    /// - Parameters:
    ///   - alertPODs: PODs on which an evaluation was yellow or red (for the extension).
    ///   - withdrawalDate: the local date of withdrawal; monitoring ends the day before.
    public init(profile: PatientProfile, rules: ReminderRules, alertPODs: [Int] = [], withdrawalDate: LocalDate? = nil) {
        let extendByHistology = profile.histology.map { rules.extendForHistologies.contains($0) } ?? false
        let extendByAlert = alertPODs.contains { $0 >= rules.extendWhenAlertFromPOD && $0 <= rules.extendedToPOD }
        extended = extendByHistology || extendByAlert
        first = profile.date(ofPOD: rules.monitoringPODs.lowerBound)
        var last = profile.date(ofPOD: extended ? rules.extendedToPOD : rules.monitoringPODs.upperBound)
        withdrawn = withdrawalDate != nil
        if let w = withdrawalDate { last = min(last, w.adding(days: -1)) }
        self.last = last
    }

    public func contains(_ date: LocalDate) -> Bool { date >= first && date <= last }
}
