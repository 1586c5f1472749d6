import HyponaTrackCore
import SQLite

/// `GET /v1/statistics[?studyId=ID]`: every patient, or one.
public struct StatisticsQuery: Sendable {
    public var studyId: String?
    /// Only the patients this reaches are counted.
    public var scope: SiteScope

    public init(studyId: String?, scope: SiteScope) {
        self.studyId = studyId
        self.scope = scope
    }
}

/// Cohort figures computed from the stored data (docs/product.md, "Exports and statistics"):
/// the repositories read each patient's window, days, latest evaluations and alerts in one read
/// transaction; `PatientFacts` and `CohortFigures` do the arithmetic. The result is typed, so the
/// JSON route and a console page render the same figures.
public final class StatisticsService: Sendable {
    let context: StudyContext

    init(context: StudyContext) { self.context = context }

    public func statistics(_ query: StatisticsQuery) throws -> StudyStatistics {
        let snapshot = context.rules.snapshot
        let (now, ms) = context.nowMilliseconds()
        return try context.transactions.longRead { db in
            let patients = try query.studyId.map { [try context.patient(db, studyId: $0, scope: query.scope)] }
                ?? PatientRepository.all(db, scope: query.scope)
            let reached = Set(patients.map(\.id))
            let alerts = Dictionary(grouping: try AlertRepository.timings(db, patientId: query.studyId == nil ? nil : patients.first?.id)
                                        .filter { reached.contains($0.patientId) }, by: \.patientId)
            let facts = try patients.map { p in
                let window = try context.window(db, p, snapshot.rules)
                let zone = context.zone(p.profile)
                let days = try DayRepository.load(db, patientId: p.id, from: window.first, to: max(window.first, window.last))
                let levels = try EvaluationRepository.latestPerDate(db, patientId: p.id).compactMapValues(\.level)
                return PatientFacts.facts(profile: p.profile, riskClass: snapshot.engine.risk.assess(p.profile).riskClass,
                                          withdrawn: p.isWithdrawn, window: window, today: zone.localDate(atEpochSeconds: now),
                                          activation: p.activatedAt.map { zone.localDate(atEpochSeconds: Double($0) / 1000) },
                                          days: days, levels: levels, alerts: alerts[p.id] ?? [])
            }
            return StudyStatistics(generatedAt: ms, studyId: query.studyId == nil ? nil : patients.first?.studyId,
                                   noDataDays: snapshot.rules.reminders.noDataDays, cohorts: CohortFigures.cohorts(facts))
        }
    }
}
