import HTJSON
import HyponaTrackCore
import SQLite

/// A REDCap row's identity (docs/redcap.md, "Idempotency"): record name without regard to case,
/// event, repeating instrument ("" for the baseline) and instance (0 for the baseline).
struct REDCapRowKey: Hashable, Comparable, Sendable {
    var record: String
    var event: String
    var instrument: String
    var instance: Int

    /// The key of a flat row as the mapper builds it or as REDCap exports it.
    init(_ row: [String: String]) {
        record = (row["record_id"] ?? "").lowercased()
        event = row["redcap_event_name"] ?? ""
        instrument = row["redcap_repeat_instrument"] ?? ""
        instance = instrument.isEmpty ? 0 : Int(row["redcap_repeat_instance"] ?? "") ?? 0
    }

    /// The instrument as the outbox and reports name it (the baseline's is not blank there).
    var form: String { instrument.isEmpty ? REDCapFields.baselineForm : instrument }

    static func < (a: Self, b: Self) -> Bool {
        (a.record, a.event, a.instrument, a.instance) < (b.record, b.event, b.instrument, b.instance)
    }
}

extension SyncService {
    /// Exports our records from REDCap and lists where they differ from what the server holds.
    /// Only our instruments are exported (`forms[]`) and rows are matched on record, event,
    /// instrument and instance, so other instruments of the project (a CRF, another repeating
    /// form) neither collide with ours nor count as rows only in REDCap.
    public func reconcile(limit: Int = 200) throws -> ReconcileReport {
        let (local, queued) = try transactions.read { db in (try localRows(db), try OutboxRepository.queuedKeys(db)) }
        let remote = try remoteRows(records: Array(Set(local.values.compactMap { $0["record_id"] })).sorted())
        var differences: [ReconcileReport.Difference] = []
        var missing = 0, differing = 0
        for key in local.keys.sorted() {
            let l = local[key]!
            let isQueued = queued.contains(.init(record: key.record, instrument: key.form, instance: key.instance))
            func difference(_ field: String, _ local: String, _ remote: String) -> ReconcileReport.Difference {
                .init(record: l["record_id"] ?? "", instrument: key.form, instance: key.instance, field: field, local: local,
                      remote: remote, queued: isQueued)
            }
            guard let r = remote[key] else {
                missing += 1
                if differences.count < limit { differences.append(difference("*", "present", "missing")) }
                continue
            }
            for (field, value) in l.sorted(by: { $0.key < $1.key }) where !field.hasPrefix("redcap_repeat_")
                && !field.hasSuffix("_complete") && (r[field] ?? "") != value {
                differing += 1
                if differences.count < limit { differences.append(difference(field, value, r[field] ?? "")) }
            }
        }
        let extra = remote.keys.filter { local[$0] == nil }.count
        return ReconcileReport(localRows: local.count, remoteRows: remote.count, missingInREDCap: missing, differingFields: differing,
                               onlyInREDCap: extra, differences: differences)
    }

    /// Every row the server would send now, each with its patient's DAG (if the site has one).
    private func localRows(_ db: Connection) throws -> [REDCapRowKey: [String: String]] {
        let snapshot = rules.snapshot
        let mapper = outbox.mapper
        var rows: [REDCapRowKey: [String: String]] = [:]
        func add(_ row: REDCapMapper.Row) {
            let flat = Dictionary(uniqueKeysWithValues: row)
            rows[REDCapRowKey(flat)] = flat
        }
        var groups: [String: String] = [:]
        for patient in try PatientRepository.all(db) {
            let dag = try SiteRepository.redcapDAG(db, siteId: patient.siteId)
            if let dag { groups[patient.studyId] = dag }
            add(REDCapMapper.assigned(mapper.baseline(patient, risk: snapshot.engine.risk.assess(patient.profile), rules: snapshot.rules),
                                      to: dag))
            let evaluations = try EvaluationRepository.latestPerDate(db, patientId: patient.id)
            for day in try DayRepository.load(db, patientId: patient.id, from: patient.profile.surgeryDate.adding(days: 1),
                                              to: patient.profile.surgeryDate.adding(days: 400)) {
                if let row = mapper.daily(patient, day: day, alert: evaluations[day.date].map(DailyAlert.init),
                                          rules: snapshot.rules) {
                    add(REDCapMapper.assigned(row, to: dag))
                }
            }
        }
        for entry in try AlertRepository.logEntries(db) { add(REDCapMapper.assigned(mapper.alertLog(entry), to: groups[entry.studyId])) }
        for outcome in try OutcomeRepository.export(db, patientId: nil) { add(REDCapMapper.assigned(mapper.outcomeLog(outcome), to: groups[outcome.studyId])) }
        return rows
    }

    /// Our instruments' rows of these records as REDCap exports them (50 records per request).
    private func remoteRows(records: [String]) throws -> [REDCapRowKey: [String: String]] {
        let ours = Set(REDCapFields.repeatingForms)
        let forms = REDCapFields(rules: rules.snapshot.rules).forms.map(\.form)
        var remote: [REDCapRowKey: [String: String]] = [:]
        for chunk in stride(from: 0, to: records.count, by: 50).map({ Array(records[$0..<min($0 + 50, records.count)]) }) {
            // With each record's DAG, so a record left in another group (a transfer not yet sent) shows.
            var fields: [(String, String)] = [("content", "record"), ("type", "flat"), ("exportDataAccessGroups", "true")]
            for (i, form) in forms.enumerated() { fields.append(("forms[\(i)]", form)) }
            for (i, r) in chunk.enumerated() { fields.append(("records[\(i)]", r)) }
            guard let rows = REDCapObject.array(try readBytes(worker.client.read(fields))) else { continue }
            for row in rows {
                let flat = row.members.mapValues(\.cell)
                let key = REDCapRowKey(flat)
                // Another instrument's instance, should REDCap send one despite `forms[]`.
                guard key.instrument.isEmpty || ours.contains(key.instrument) else { continue }
                remote[key] = flat
            }
        }
        return remote
    }
}
