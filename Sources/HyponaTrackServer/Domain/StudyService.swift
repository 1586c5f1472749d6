import Foundation
import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite
import Synchronization

/// The study's operations — enrolment, submissions, corrections, views — on top of the store and
/// the pure clinical core. Every write runs inside one group-commit transaction together with its
/// evaluations and audit rows, so a request is answered only when all of it is durable.
public final class StudyService: Sendable {
    public let database: Database
    public let rules: ActiveRules
    public let clock: any ServerClock
    public let configuration: ServerConfiguration
    public let metrics: Metrics
    /// The REDCap outbox; nil when no `redcap` block is configured (sync off).
    let outbox: SyncOutbox?
    /// Opens and worsens alerts from evaluations, queues their hook events.
    let alerting: Alerting?
    /// Every write goes through here (wakes the sync and the hook workers after COMMIT).
    let transactions: Transactions
    /// Alerts: list, acknowledge, resolve.
    public let alertService: AlertService
    /// The audit trail: read a page, verify the chain.
    public let auditService: AuditService
    /// Checked online copies of the database.
    public let backupService: BackupService

    init(database: Database, rules: ActiveRules, clock: any ServerClock, configuration: ServerConfiguration,
         metrics: Metrics, outbox: SyncOutbox? = nil, alerting: Alerting? = nil, hooksWake: @escaping @Sendable () -> Void = {}) {
        self.alerting = alerting
        let transactions = Transactions(database: database, wakeSync: { outbox?.wake() }, wakeHooks: hooksWake)
        self.transactions = transactions
        alertService = AlertService(transactions: transactions, alerting: alerting, clock: clock)
        auditService = AuditService(transactions: transactions)
        backupService = BackupService(transactions: transactions, clock: clock, dataDirectory: configuration.dataDirectory)
        self.database = database
        self.rules = rules
        self.clock = clock
        self.configuration = configuration
        self.metrics = metrics
        self.outbox = outbox
    }

    /// A write transaction; afterwards the sync and hook workers are woken for the rows it may have queued.
    func write<T>(_ job: (Connection) throws -> T) throws -> T { try transactions.write(job) }

    // MARK: shared helpers

    func zone(_ profile: PatientProfile) -> ZoneRules {
        ZoneCache.rules(profile.timeZone) ?? ZoneCache.rules(configuration.defaultTimeZone) ?? ZoneRules(identifier: "UTC")!
    }

    /// Today in the patient's time zone.
    func today(_ profile: PatientProfile, now: Double) -> LocalDate { zone(profile).localDate(atEpochSeconds: now) }

    func patient(_ db: Connection, studyId: String) throws -> PatientRecord {
        guard ValueRanges.isValidStudyId(studyId), let p = try PatientRepository.load(db, studyId: studyId) else {
            throw DomainError.notFound("no patient with study ID \(studyId.prefix(64))")
        }
        return p
    }

    func window(_ db: Connection, _ patient: PatientRecord, _ rules: RuleSet) throws -> MonitoringWindow {
        MonitoringWindow(profile: patient.profile, rules: rules.reminders,
                         alertPODs: try EvaluationRepository.alertPODs(db, patientId: patient.id),
                         withdrawalDate: patient.withdrawalDate)
    }

    /// Evaluates `dates` of a patient, stores each evaluation and its audit row. With
    /// `onlyIfChanged`, a date whose result equals its latest stored one is skipped.
    /// `preloaded` may hold the patient's days from two days before the first date to the last
    /// (saves reading them again).
    @discardableResult
    func evaluate(_ db: Connection, _ patient: PatientRecord, dates: [LocalDate], cause: String, actor: String,
                  snapshot: ActiveRules.Snapshot, at ms: Int64, onlyIfChanged: Bool = false,
                  preloaded: [DailyEntry]? = nil) throws -> [LocalDate: Evaluation] {
        guard let first = dates.min(), let last = dates.max() else { return [:] }
        let days = try preloaded ?? DayRepository.load(db, patientId: patient.id, from: first.adding(days: -2), to: last)
        let assessment = snapshot.engine.risk.assess(patient.profile)
        var results: [LocalDate: Evaluation] = [:]
        for date in Set(dates).sorted() {
            let e = snapshot.engine.evaluate(profile: patient.profile, days: days, date: date, assessment: assessment)
            results[date] = e
            if onlyIfChanged, let stored = try EvaluationRepository.latest(db, patientId: patient.id, date: date),
               stored.level == e.level, stored.reasons == e.reasons.map(StoredReason.init), stored.rulesVersion == e.rulesVersion,
               stored.riskScore == e.risk.riskScore {
                continue
            }
            let id = try EvaluationRepository.insert(db, patientId: patient.id, e, cause: cause, at: ms)
            try AuditLog.append(db, at: ms, actor: actor, action: .evaluationRecord, subject: patient.studyId,
                                details: ["evaluationId": .number(Double(id)), "date": .string(date.description),
                                          "pod": .int(e.pod), "level": .string(e.level.rawValue),
                                          "reasons": .array(e.reasonCodes.map { JSONValue.string($0) }),
                                          "rulesVersion": .string(e.rulesVersion), "cause": .string(cause)])
            metrics.evaluationRecorded(level: e.level)
            try alerting?.evaluationRecorded(db, patient, e, at: ms)
            if let outbox {
                try outbox.enqueueDaily(db, patient, day: days.first { $0.date == date } ?? DailyEntry(date: date),
                                        alert: DailyAlert(e, at: ms), snapshot: snapshot, at: ms)
            }
        }
        return results
    }

    /// D, and D+1 and D+2 when they hold data (rules read the two previous days).
    func datesAffected(by date: LocalDate, _ db: Connection, patientId: Int64) throws -> [LocalDate] {
        var dates = [date]
        for offset in 1...2 where try DayRepository.hasData(db, patientId: patientId, date: date.adding(days: offset)) {
            dates.append(date.adding(days: offset))
        }
        return dates
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
