import Charts
import HyponaTrackCore
import SQLite

/// `GET /v1/patients/{studyId}/report.pdf`, `hyponatrack report ID`: one patient's clinical report.
public struct ClinicalReportRequest: Sendable {
    public var studyId: String
    public var language: Language
    public var actor: String

    public init(studyId: String, language: Language, actor: String) {
        self.studyId = studyId
        self.language = language
        self.actor = actor
    }
}

/// A finished report.
public struct ClinicalReport: Sendable {
    /// As stored (the request may differ in case).
    public var studyId: String
    public var language: Language
    public var pdf: [UInt8]
    public var pageCount: Int
    /// ms since the epoch.
    public var createdAt: Int64
    /// Where the time went (for `Server-Timing` and the benchmark).
    public var timings: [(name: String, duration: Duration)]

    /// `hyponatrack-report-HT-007.pdf`.
    public var fileName: String { "hyponatrack-report-\(studyId).pdf" }
}

/// The clinical report (docs/product.md, "The clinical report (PDF)"): what was measured, what
/// the system said and who did what, for the clinical record. Everything is read in one read
/// transaction (a consistent snapshot); the charts come from `TrendChartBuilder`, the same
/// builder as the console's; `ReportLayout` lays the content out into A4 pages before
/// `ReportRenderer` draws them (so each page can say "page N of M"). Every report is audited
/// (who, which patient, when) before it is handed out.
public final class ReportService: Sendable {
    let context: StudyContext

    init(context: StudyContext) { self.context = context }

    public func report(_ request: ClinicalReportRequest) throws -> ClinicalReport {
        let snapshot = context.rules.snapshot
        let now = context.clock.now()
        let clock = ContinuousClock(), start = clock.now
        let content = try context.transactions.longRead { db in
            let patient = try context.patient(db, studyId: request.studyId)
            let stored = try context.storedData(db, patient, snapshot.rules)
            let charts = TrendChartBuilder(engine: snapshot.engine)
                .charts(profile: patient.profile, days: stored.days, evaluations: stored.evaluations, window: stored.window,
                        language: request.language)
            var content = ReportContent(patient: patient, stored: stored, charts: charts,
                                 risk: snapshot.engine.risk.assess(patient.profile),
                                 riskFactors: snapshot.engine.risk.factors(patient.profile),
                                 alerts: try AlertRepository.views(db, patientId: patient.id),
                                 contacts: try ContactRepository.list(db, patientId: patient.id),
                                 rules: snapshot.rules, zone: context.zone(patient.profile), now: now)
            content.outcomes = try OutcomeRepository.list(db, patientId: patient.id)
            return content
        }
        let read = clock.now - start
        let rendered = try ReportRenderer(content: content, text: ReportText(language: request.language)).render()
        let auditStart = clock.now
        let ms = epochMilliseconds(now)
        try context.write { db in
            try AuditLog.append(db, at: ms, actor: request.actor, action: .exportReport, subject: content.studyId,
                                details: AuditDetails.ReportExport(studyId: content.studyId, language: request.language.rawValue,
                                                                  pages: rendered.pageCount))
        }
        return ClinicalReport(studyId: content.studyId, language: request.language, pdf: rendered.pdf,
                              pageCount: rendered.pageCount, createdAt: ms,
                              timings: [("read", read), ("layout", rendered.layout), ("draw", rendered.draw), ("finish", rendered.finish),
                                        ("audit", clock.now - auditStart)])
    }
}

/// What the report shows, read once: plain values, no database, no drawing.
struct ReportContent: Sendable {
    struct Day: Sendable {
        var date: LocalDate
        var pod: Int
        var entry: DailyEntry?
        var evaluation: StoredEvaluation?
    }

    struct Lab: Sendable {
        var time: Timestamp
        var date: LocalDate
        var pod: Int
        var value: Double
    }

    var studyId: String
    var profile: PatientProfile
    var risk: RiskAssessment
    /// Every Kat A/B/C item with its points (`RiskEngine.factors`).
    var riskFactors: [RiskFactor]
    var window: MonitoringWindow
    var monitoringActive: Bool
    var charts: [Chart]
    /// Monitored days up to today and every stored day, oldest first.
    var days: [Day]
    var hasData: Bool
    var alerts: [AlertView]
    /// Every contact attempt, oldest first.
    var contacts: [ContactRecord]
    /// Every outcome by date, withdrawn ones too.
    var outcomes: [OutcomeRecord] = []
    var labs: [Lab]
    var rulesVersion: String
    /// The risk model in force, whose rules the baseline's items name.
    var riskRules: RiskModelRules
    /// The rules' `missingData.noData.days`, which a `no_data_2d` alert's kind and reason name.
    var noDataDays: Int
    /// The facts of the rules in force the reasons are worded with (`ReasonWording`).
    var wordingFacts: ReasonWording.Facts
    /// The versions the stored evaluations were made with, in order of first use.
    var evaluationVersions: [String]
    var zone: ZoneRules
    /// Seconds since the epoch.
    var generatedAt: Double

    init(patient: PatientRecord, stored: PatientStoredData, charts: [Chart], risk: RiskAssessment, riskFactors: [RiskFactor] = [],
         alerts: [AlertView],
         contacts: [ContactRecord] = [], rules: RuleSet, zone: ZoneRules, now: Double) {
        studyId = patient.studyId
        profile = patient.profile
        self.risk = risk
        self.riskFactors = riskFactors
        window = stored.window
        let today = zone.localDate(atEpochSeconds: now)
        monitoringActive = stored.window.contains(today)
        self.charts = charts
        self.alerts = alerts
        self.contacts = contacts
        rulesVersion = rules.version
        riskRules = rules.riskModel
        noDataDays = rules.reminders.noDataDays
        wordingFacts = ReasonWording.Facts(rules: rules)
        self.zone = zone
        generatedAt = now

        var entries: [LocalDate: DailyEntry] = [:]
        for day in stored.days { entries[day.date] = day }
        var dates = Set(entries.keys)
        var d = stored.window.first
        while d <= min(stored.window.last, today) {
            dates.insert(d)
            d = d.adding(days: 1)
        }
        days = dates.sorted().map { date in
            Day(date: date, pod: patient.profile.pod(at: date), entry: entries[date], evaluation: stored.evaluations[date])
        }
        hasData = !stored.days.isEmpty
        labs = stored.days.flatMap { day in
            day.labSodium.map { Lab(time: $0.time, date: day.date, pod: patient.profile.pod(at: day.date), value: $0.value) }
        }.sorted { $0.time.epochSeconds < $1.time.epochSeconds }
        var versions: [String] = []
        for e in stored.evaluations.values.sorted(by: { $0.id < $1.id }) where !versions.contains(e.rulesVersion) {
            versions.append(e.rulesVersion)
        }
        evaluationVersions = versions
    }
}
