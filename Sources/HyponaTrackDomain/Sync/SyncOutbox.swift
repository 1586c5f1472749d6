import HyponaTrackCore
import SQLite

/// Queues REDCap rows inside the caller's transaction (transactional outbox: if the data is
/// stored, its row is queued; if not, neither is). Present only when a `redcap` block is
/// configured.
final class SyncOutbox: Sendable {
    let mapper: REDCapMapper
    /// Wakes the sync actor after a commit that queued rows.
    let wake: @Sendable () -> Void

    init(mapper: REDCapMapper, wake: @escaping @Sendable () -> Void) {
        self.mapper = mapper
        self.wake = wake
    }

    /// Queues the patient's baseline row and re-queues their stored days: a daily row carries
    /// values computed from the profile (`rt_slowing_pct` from the baseline reaction time), which
    /// must reach REDCap even where a profile change leaves the day's evaluation as it was.
    /// Returns the number of rows queued.
    @discardableResult
    func enqueueBaseline(_ db: Connection, _ patient: PatientRecord, snapshot: ActiveRules.Snapshot, at ms: Int64) throws -> Int {
        let risk = snapshot.engine.risk.assess(patient.profile)
        let dag = try SiteRepository.redcapDAG(db, siteId: patient.siteId)
        let row = REDCapMapper.assigned(mapper.baseline(patient, risk: risk, rules: snapshot.rules), to: dag)
        try OutboxRepository.enqueue(db, record: patient.studyId, instrument: REDCapFields.baselineForm, instance: 0, row: row, at: ms)
        var count = 1
        let days = try DayRepository.load(db, patientId: patient.id, from: patient.profile.surgeryDate.adding(days: 1),
                                          to: patient.profile.surgeryDate.adding(days: 400))
        guard !days.isEmpty else { return count }
        let evaluations = try EvaluationRepository.latestPerDate(db, patientId: patient.id)
        for day in days {
            try enqueueDaily(db, patient, day: day, alert: evaluations[day.date].map(DailyAlert.init), snapshot: snapshot, dag: dag, at: ms)
            count += 1
        }
        return count
    }

    /// `dag`: the patient's site's DAG when the caller has it (nil: read here).
    func enqueueDaily(_ db: Connection, _ patient: PatientRecord, day: DailyEntry, alert: DailyAlert?,
                      snapshot: ActiveRules.Snapshot, dag: String?? = nil, at ms: Int64) throws {
        guard let row = mapper.daily(patient, day: day, alert: alert, rules: snapshot.rules) else { return }
        let group = try dag ?? SiteRepository.redcapDAG(db, siteId: patient.siteId)
        try OutboxRepository.enqueue(db, record: patient.studyId, instrument: REDCapFields.dailyForm,
                                     instance: patient.profile.pod(at: day.date), row: REDCapMapper.assigned(row, to: group), at: ms)
    }

    /// Queues the `alert_log` row of an alert as it stands now (after the change being stored).
    func enqueueAlertLog(_ db: Connection, alertId: Int64, at ms: Int64) throws {
        guard let entry = try AlertRepository.logEntry(db, id: alertId) else { return }
        try enqueueAlertLog(db, entry, at: ms)
    }

    func enqueueAlertLog(_ db: Connection, _ entry: AlertLogEntry, at ms: Int64) throws {
        let row = REDCapMapper.assigned(mapper.alertLog(entry), to: try SiteRepository.redcapDAG(db, studyId: entry.studyId))
        try OutboxRepository.enqueue(db, record: entry.studyId, instrument: REDCapFields.alertLogForm, instance: entry.instance,
                                     row: row, at: ms)
    }

    /// Queues every row of one patient again (baseline, days, alerts), each carrying the DAG of
    /// the patient's site as it is now: a transfer, or a site given its DAG, moves the record
    /// (REDCap assigns a record to the group its imported rows name). Returns the rows queued.
    @discardableResult
    func enqueuePatient(_ db: Connection, _ patient: PatientRecord, snapshot: ActiveRules.Snapshot, at ms: Int64) throws -> Int {
        var count = try enqueueBaseline(db, patient, snapshot: snapshot, at: ms)
        for entry in try AlertRepository.logEntries(db, patientId: patient.id) {
            try enqueueAlertLog(db, entry, at: ms)
            count += 1
        }
        return count
    }

    /// Queues the `outcome_log` row of an outcome as it stands now.
    func enqueueOutcomeLog(_ db: Connection, _ outcome: OutcomeRecord, at ms: Int64) throws {
        try OutboxRepository.enqueue(db, record: outcome.studyId, instrument: REDCapFields.outcomeLogForm, instance: outcome.instance,
                                     row: mapper.outcomeLog(outcome), at: ms)
    }

    /// Queues the alerts that migration `v4_alert_log` found (once: the list is emptied in the
    /// same transaction). Returns the number of rows queued.
    @discardableResult
    func enqueueAlertBackfill(_ db: Connection, at ms: Int64) throws -> Int {
        let entries = try AlertRepository.backfill(db)
        for entry in entries { try enqueueAlertLog(db, entry, at: ms) }
        try AlertRepository.clearBackfill(db)
        return entries.count
    }

    /// Re-queues every patient's baseline, every stored day (POD ≥ 1) and every alert;
    /// idempotent, since rows coalesce per record/instrument/instance and REDCap imports of the
    /// same values change nothing. Alerts still waiting for their upgrade backfill are covered too.
    func enqueueEverything(_ db: Connection, snapshot: ActiveRules.Snapshot, at ms: Int64) throws -> Int {
        var count = 0
        for patient in try PatientRepository.all(db) {
            count += try enqueueBaseline(db, patient, snapshot: snapshot, at: ms)
        }
        for entry in try AlertRepository.logEntries(db) {
            try enqueueAlertLog(db, entry, at: ms)
            count += 1
        }
        for outcome in try OutcomeRepository.export(db, patientId: nil) {
            try enqueueOutcomeLog(db, outcome, at: ms)
            count += 1
        }
        try AlertRepository.clearBackfill(db)
        return count
    }
}
