import HyponaTrackCore
import SQLite

/// When a patient token stops working: `daysAfterMonitoring` days after the patient's
/// monitoring window ends (`tokens.patientDaysAfterMonitoring`, default 30), counted in the
/// patient's time zone. The token works through local date `window.last + daysAfterMonitoring`
/// and is refused (401 `expired_token`) from the day after.
///
/// Nothing is stored: the end is computed on each request from the stored profile (surgery
/// date, time zone), the evaluations that may extend the window (`MonitoringWindow`) and the
/// time — so a later extension of the window, or a corrected surgery date, moves it too.
/// `TokenCache` keeps an owner only until `certainlyValidUntil`, and a changed profile moves
/// the cache on. (Withdrawal revokes the tokens anyway.)
public struct PatientTokenLifetime: Sendable {
    public let daysAfterMonitoring: Int
    let rules: ActiveRules
    /// For a stored time zone this system does not know (as elsewhere: the configured default).
    let defaultTimeZone: String

    public init(daysAfterMonitoring: Int, rules: ActiveRules, defaultTimeZone: String) {
        self.daysAfterMonitoring = daysAfterMonitoring
        self.rules = rules
        self.defaultTimeZone = defaultTimeZone
    }

    /// The lifetime as configured (`tokens.patientDaysAfterMonitoring`, `defaultTimeZone`).
    public init(configuration: ServerConfiguration, rules: ActiveRules) {
        self.init(daysAfterMonitoring: configuration.tokens.patientDaysAfterMonitoring, rules: rules,
                  defaultTimeZone: configuration.defaultTimeZone)
    }

    /// A patient whose tokens have outlived the monitoring period: no token of theirs works,
    /// so none should be issued (activation is refused, no new code is printed).
    public struct Ended: Sendable, Equatable {
        /// The last day of the monitoring window (extended or not).
        public var monitoringEnded: LocalDate
        /// The last local date a token of theirs worked on: `monitoringEnded + daysAfterMonitoring`.
        public var lastDay: LocalDate
    }

    /// When the token of patient `patientId` stops working (epoch seconds: the start of the day
    /// after `window.last + daysAfterMonitoring`, local time), nil for an unknown patient.
    func end(_ db: Connection, patientId: Int64) throws -> Double? {
        guard let patient = try PatientRepository.load(db, id: patientId) else { return nil }
        let zone = zoneRules(of: patient)
        let window = try MonitoringWindow.stored(db, patient, rules: rules.snapshot.rules.reminders)
        return start(ofDayAfter: window, zone)
    }

    /// Until when (epoch seconds) the token of patient `patientId` certainly works, whatever
    /// evaluations extend the window: the end computed from the shortest window (no
    /// extension), as `isOver` uses it. For `TokenCache`; nil for an unknown patient.
    func certainlyValidUntil(_ db: Connection, patientId: Int64) throws -> Double? {
        guard let patient = try PatientRepository.load(db, id: patientId) else { return nil }
        let zone = zoneRules(of: patient)
        let shortest = MonitoringWindow(profile: patient.profile, rules: rules.snapshot.rules.reminders,
                                        withdrawalDate: patient.withdrawalDate)
        return start(ofDayAfter: shortest, zone)
    }

    /// The patient's zone; for a stored zone this system does not know, the configured default.
    private func zoneRules(of patient: PatientRecord) -> ZoneRules {
        ZoneCache.rules(patient.profile.timeZone) ?? ZoneCache.rules(defaultTimeZone) ?? ZoneRules(identifier: "UTC")!
    }

    /// Epoch seconds of the local midnight after the token's last day (`window.last + daysAfterMonitoring`).
    private func start(ofDayAfter window: MonitoringWindow, _ zone: ZoneRules) -> Double {
        zone.instant(on: window.last.adding(days: daysAfterMonitoring + 1), at: LocalTime(hour: 0, minute: 0)!).epochSeconds
    }

    /// The version of the rules the lifetime is computed with now.
    var rulesVersion: String { rules.snapshot.rules.version }

    /// Whether the token of patient `patientId` has outlived the monitoring period at `now`.
    func isOver(_ db: Connection, patientId: Int64, now: Double) throws -> Bool {
        guard let patient = try PatientRepository.load(db, id: patientId) else { return true }
        return try ended(db, patient, now: now) != nil
    }

    /// Whether the tokens of `patient` have outlived the monitoring period at `now` (nil: a
    /// token issued now works).
    func ended(_ db: Connection, _ patient: PatientRecord, now: Double) throws -> Ended? {
        let reminders = rules.snapshot.rules.reminders
        let zone = zoneRules(of: patient)
        let today = zone.localDate(atEpochSeconds: now)
        // The window without its extension is the shortest it can be: inside it plus the grace
        // period, no evaluation needs reading (the common case, every submission).
        let shortest = MonitoringWindow(profile: patient.profile, rules: reminders, withdrawalDate: patient.withdrawalDate)
        if today <= shortest.last.adding(days: daysAfterMonitoring) { return nil }
        let window = try MonitoringWindow.stored(db, patient, rules: reminders)
        let lastDay = window.last.adding(days: daysAfterMonitoring)
        return today > lastDay ? Ended(monitoringEnded: window.last, lastDay: lastDay) : nil
    }
}
