import HyponaTrackCore
import SQLite

/// The outcome report (docs/product.md, third round, O): the repositories read every patient in
/// scope, their monitored days, latest levels, outcomes, alerts and contacts in one read
/// transaction; `OutcomeCohorts` and `OutcomeMath` do the arithmetic (each figure defined in
/// docs/clinical-rules.md, "Outcomes"); the live-versus-shadow comparison comes from
/// `ShadowComparison`. Typed, so the JSON route, the CLI and the console page show the same figures.
public final class OutcomeReportService: Sendable {
    let context: StudyContext
    let shadow: ShadowRules

    init(context: StudyContext, shadow: ShadowRules) {
        self.context = context
        self.shadow = shadow
    }

    public func report(_ query: OutcomeReportQuery) throws -> OutcomeReport {
        let snapshot = context.rules.snapshot
        let (now, ms) = context.nowMilliseconds()
        let lookback = context.configuration.outcomes.lookbackDays
        let shadowVersion = shadow.snapshot?.rules.version
        return try context.transactions.longRead { db in
            let patients = try patientsInScope(db, query.scope)
            let sites = try SiteRepository.all(db).filter { query.scope.contains(site: $0.id) }
            let facts = try Self.facts(db, patients: patients, sites: sites, query: query, now: now, context: context, rules: snapshot.rules)
            let comparison = try shadowVersion.map { version in
                try ShadowComparison.compare(db, patients: patients, query: query, liveVersion: snapshot.rules.version,
                                             shadowVersion: version, lookback: lookback, today: { context.today($0.profile, now: now) })
            }
            return OutcomeReport(generatedAt: ms, query: query.dates, lookbackDays: lookback,
                                 hyponatremiaBelow: context.configuration.outcomes.hyponatremiaBelow,
                                 rulesVersion: snapshot.rules.version, cohorts: OutcomeCohorts.figures(facts, lookback: lookback),
                                 sites: OutcomeCohorts.bySite(facts, sites: sites, lookback: lookback),
                                 episodes: OutcomeCohorts.episodes(facts, lookback: lookback), shadow: comparison ?? nil)
        }
    }

    /// A patient's levels by date (read only for patients with an episode, who look back over them).
    static func levels(_ run: [(date: LocalDate, level: Level?)]?) -> [LocalDate: Level] {
        guard let run else { return [:] }
        return Dictionary(run.compactMap { d in d.level.map { (d.date, $0) } }, uniquingKeysWith: { _, last in last })
    }

    /// The patients the report is over: those of the member's sites.
    func patientsInScope(_ db: Connection, _ scope: SiteScope) throws -> [PatientRecord] {
        let all = try context.everyPatient.all(db)
        return scope.isAllSites ? all : all.filter { scope.contains(site: $0.siteId) }
    }

    /// `sites`: the sites in scope (every patient in scope is at one of them).
    static func facts(_ db: Connection, patients: [PatientRecord], sites: [Site], query: OutcomeReportQuery, now: Double,
                      context: StudyContext, rules: RuleSet) throws -> [PatientOutcomeFacts] {
        let codes = Dictionary(uniqueKeysWithValues: sites.map { ($0.id, $0.code) })
        let levels = try OutcomeReportRepository.latestLevels(db)
        let outcomes = try OutcomeRepository.byPatient(db)
        let alerts = Dictionary(grouping: try AlertRepository.timings(db, patientId: nil), by: \.patientId)
        let contacts = try OutcomeReportRepository.contactTimes(db)
        let extensions = try EvaluationRepository.alertPODs(db, patients: patients, rules: rules.reminders)
        let assess = context.rules.snapshot.engine.risk
        return patients.map { p in
            let zone = context.zone(p.profile)
            let today = zone.localDate(atEpochSeconds: now)
            let window = MonitoringWindow(profile: p.profile, rules: rules.reminders, alertPODs: extensions[p.id] ?? [],
                                          withdrawalDate: p.withdrawalDate)
            var pods: [Int] = []
            var date = window.first
            while date <= window.last && date <= today {
                if query.contains(date) { pods.append(p.profile.pod(at: date)) }
                date = date.adding(days: 1)
            }
            let episodes = (outcomes[p.id] ?? []).filter(\.isEpisode)
            return PatientOutcomeFacts(
                studyId: p.studyId, site: codes[p.siteId] ?? "", riskClass: assess.assess(p.profile).riskClass, surgeryDate: p.profile.surgeryDate, today: today,
                monitoredPODs: pods, levels: Self.levels(levels[p.id]),
                episodes: episodes.filter { query.contains($0.date) },
                allEpisodeDates: episodes.map(\.date),
                alerts: (alerts[p.id] ?? []).filter { $0.firstDay.map(query.contains) ?? false },
                contacts: (contacts[p.id] ?? []).filter { query.contains(zone.localDate(atEpochSeconds: Double($0) / 1000)) }.count)
        }
    }
}
