import Foundation
import HyponaTrackCore
import HyponaTrackKit
import SQLite
import Synchronization

/// What every study service shares: the store, the rules in force, the clock, the
/// configuration and the one write path. Every write runs inside one group-commit transaction
/// together with its evaluations and audit rows, so a request is answered only when all of it
/// is durable.
final class StudyContext: Sendable {
    let database: Database
    let rules: ActiveRules
    let clock: any ServerClock
    let configuration: ServerConfiguration
    let metrics: Metrics
    /// The REDCap outbox; nil when no `redcap` block is configured (sync off).
    let outbox: SyncOutbox?
    /// Opens and worsens alerts from evaluations, queues their hook events.
    let alerting: Alerting?
    let transactions: Transactions
    /// Rules every evaluation is also computed under, with no effect but a stored row.
    let shadow: ShadowRules
    /// The days submissions read, by patient and revision (`SubmissionPlan`).
    let dayWindows = DayWindowCache()
    /// Patient rows as day submissions plan with them (`PatientCache`).
    let patients = PatientCache()
    /// Every patient decoded once, for the reads over all of them (`DecodedPatients`).
    let everyPatient = DecodedPatients()

    init(database: Database, rules: ActiveRules, clock: any ServerClock, configuration: ServerConfiguration,
         metrics: Metrics, outbox: SyncOutbox?, alerting: Alerting?, shadow: ShadowRules, hooksWake: @escaping @Sendable () -> Void) {
        self.database = database
        self.rules = rules
        self.clock = clock
        self.configuration = configuration
        self.metrics = metrics
        self.outbox = outbox
        self.alerting = alerting
        self.shadow = shadow
        transactions = Transactions(database: database, wakeSync: { outbox?.wake() }, wakeHooks: hooksWake)
    }

    /// A write transaction; afterwards the sync and hook workers are woken for the rows it may have queued.
    func write<T>(_ job: (Connection) throws -> T) throws -> T { try transactions.write(job) }

    /// The same, without waiting: `completion` runs on the writer thread after the COMMIT.
    func submit<T>(_ job: @escaping @Sendable (Connection) throws -> T,
                   completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        transactions.submit(job, completion: completion)
    }

    func read<T>(_ job: (Connection) throws -> T) throws -> T { try database.read(job) }

    func zone(_ profile: PatientProfile) -> ZoneRules {
        ZoneCache.rules(profile.timeZone) ?? ZoneCache.rules(configuration.defaultTimeZone) ?? ZoneRules(identifier: "UTC")!
    }

    /// The study time zone (`studyTimeZone`; validated when the configuration is read).
    var studyZone: ZoneRules {
        ZoneCache.rules(configuration.studyTimeZone) ?? ZoneRules(identifier: "UTC")!
    }

    /// Today in the patient's time zone.
    func today(_ profile: PatientProfile, now: Double) -> LocalDate { zone(profile).localDate(atEpochSeconds: now) }

    /// The patient with this study ID within `scope` (a patient outside it is not told apart from
    /// one that does not exist).
    func patient(_ db: Connection, studyId: String, scope: SiteScope = .allSites) throws -> PatientRecord {
        guard ValueRanges.isValidStudyId(studyId), let p = try PatientRepository.load(db, studyId: studyId),
              scope.contains(site: p.siteId) else {
            throw DomainError.noPatient(studyId)
        }
        return p
    }

    /// A patient still taking part; a withdrawn one is a conflict with `withdrawnMessage`.
    func activePatient(_ db: Connection, studyId: String, withdrawnMessage: String) throws -> PatientRecord {
        let p = try patient(db, studyId: studyId)
        guard !p.isWithdrawn else { throw DomainError.conflict(withdrawnMessage, problem: .patientWithdrawn) }
        return p
    }

    /// A window that answers `contains(date)` for this one date: the window without its
    /// extension when that already holds `date` (it is the shortest the window can be, so no
    /// evaluation needs reading — the common case, asked by every submission, whose extension
    /// query grows with the patient's evaluations), else the full window.
    func window(_ db: Connection, _ patient: PatientRecord, _ rules: RuleSet, deciding date: LocalDate) throws -> MonitoringWindow {
        let shortest = MonitoringWindow(profile: patient.profile, rules: rules.reminders, withdrawalDate: patient.withdrawalDate)
        return shortest.contains(date) ? shortest : try window(db, patient, rules)
    }

    func window(_ db: Connection, _ patient: PatientRecord, _ rules: RuleSet) throws -> MonitoringWindow {
        try MonitoringWindow.stored(db, patient, rules: rules.reminders)
    }

    func nowMilliseconds() -> (Double, Int64) {
        let now = clock.now()
        return (now, epochMilliseconds(now))
    }
}

/// Time-zone rules by identifier: building Foundation's `TimeZone` is costly and the set of zones
/// a study uses is tiny.
enum ZoneCache {
    static let cache = Mutex<[String: ZoneRules]>([:])

    static func rules(_ identifier: String) -> ZoneRules? {
        if let z = cache.withLock({ $0[identifier] }) { return z }
        guard let z = ZoneRules(identifier: identifier) else { return nil }
        cache.withLock { $0[identifier] = z }
        return z
    }
}
