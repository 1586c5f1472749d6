import HyponaTrackCore
import SQLite

/// The study's services, each serving one concern, over one shared context (store, rules,
/// clock, configuration, the one write path). Routes take the service they need from here.
public final class StudyService: Sendable {
    let context: StudyContext
    /// Enrolment, activation codes, profile updates, withdrawal.
    public let enrollment: EnrollmentService
    /// The patient's days: submit, read back, today.
    public let days: DayService
    /// Lab values and corrections.
    public let corrections: CorrectionService
    /// Patient lists and timelines.
    public let patients: PatientQueries
    /// Imported values: list, confirm, reject.
    public let proposals: ProposalService
    /// FHIR and Apple Health imports: read, reduce, propose.
    public let imports: ImportService
    /// Alerts: list, acknowledge, resolve.
    public let alerts: AlertService
    /// The contact log: contact attempts with patients.
    public let contacts: ContactService
    /// Outcomes: staff-recorded and lab-derived.
    public let outcomes: OutcomeService
    /// The patients' push devices.
    public let devices: PushDeviceService
    /// The audit trail: read a page, verify the chain, checkpoint its head.
    public let audit: AuditService
    /// Checked online copies of the database.
    public let backup: BackupService
    /// CSV exports of days and alerts (audited).
    public let exports: ExportService
    /// The clinical report as a PDF (audited).
    public let reports: ReportService
    /// Cohort figures: adherence, days per level, alert rates, times to acknowledgement.
    public let statistics: StatisticsService
    /// The study's sites, staff members' sites, transfers and the scope rule.
    public let sites: SiteService
    /// The outcome report: episodes, warnings, lead times, burden, predictive value.
    public let outcomeReport: OutcomeReportService
    /// Backtests of candidate rules, shadow rules and their promotion.
    public let ruleTrials: RuleTrialService

    public var database: Database { context.database }
    public var rules: ActiveRules { context.rules }
    public var clock: any ServerClock { context.clock }
    public var configuration: ServerConfiguration { context.configuration }

    init(database: Database, rules: ActiveRules, clock: any ServerClock, configuration: ServerConfiguration,
         metrics: Metrics, outbox: SyncOutbox? = nil, alerting: Alerting? = nil, shadow: ShadowRules = ShadowRules(),
         reloadRules: (@Sendable () -> Result<String, RulesError>)? = nil, hooksWake: @escaping @Sendable () -> Void = {}) {
        let context = StudyContext(database: database, rules: rules, clock: clock, configuration: configuration, metrics: metrics,
                                   outbox: outbox, alerting: alerting, shadow: shadow, hooksWake: hooksWake)
        self.context = context
        enrollment = EnrollmentService(context: context)
        days = DayService(context: context)
        outcomes = OutcomeService(context: context)
        corrections = CorrectionService(context: context, outcomes: outcomes)
        patients = PatientQueries(context: context)
        proposals = ProposalService(context: context, corrections: corrections)
        imports = ImportService(context: context)
        let labs = corrections
        alerts = AlertService(transactions: context.transactions, alerting: alerting, clock: clock) { db, patientId, sodium, time, actor, ms in
            try labs.addLabAtResolve(db, patientId: patientId, sodium: sodium, time: time, actor: actor, at: ms)
        }
        contacts = ContactService(context: context)
        devices = PushDeviceService(context: context)
        audit = AuditService(transactions: context.transactions, key: database.auditKey,
                             checkpoints: AuditCheckpoints(hooks: configuration.hooks, zone: context.studyZone), clock: clock)
        backup = BackupService(transactions: context.transactions, clock: clock, configuration: configuration, hooksWake: hooksWake)
        exports = ExportService(context: context)
        reports = ReportService(context: context)
        statistics = StatisticsService(context: context)
        sites = SiteService(context: context)
        outcomeReport = OutcomeReportService(context: context, shadow: shadow)
        ruleTrials = RuleTrialService(context: context, reload: reloadRules)
    }
}
