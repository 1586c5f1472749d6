import Foundation
import HTJSON
import HyponaTrackCore
import SQLite

/// The staff side of the sync: status, retry, resume, check, reconcile, export-all.
final class SyncService: Sendable {
    /// Writes wake the sync worker after COMMIT (they make rows due or queue them).
    let transactions: Transactions
    let outbox: SyncOutbox
    let worker: REDCapSync
    let rules: ActiveRules
    let clock: any ServerClock
    let events: (baseline: String?, daily: String?)

    init(database: Database, outbox: SyncOutbox, worker: REDCapSync, rules: ActiveRules, clock: any ServerClock,
         events: (baseline: String?, daily: String?)) {
        transactions = Transactions(database: database, wakeSync: { worker.wake() }, wakeHooks: {})
        self.outbox = outbox
        self.worker = worker
        self.rules = rules
        self.clock = clock
        self.events = events
    }

    func status() throws -> SyncStatus {
        let ms = epochMilliseconds(clock.now())
        let s = try transactions.read { try OutboxRepository.status($0) }
        return SyncStatus(url: worker.client.url, outbox: s, requestsLastMinute: worker.client.pacer.recent,
                          maxRequestsPerMinute: worker.client.pacer.perMinute, asOf: ms)
    }

    func retry(_ command: RetrySync) throws -> RetryResult {
        let ms = epochMilliseconds(clock.now())
        let n = try transactions.write { db -> Int in
            let n = try OutboxRepository.retry(db, dead: command.dead)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .syncRetry, subject: nil,
                                details: ["dead": .bool(command.dead), "rows": .int(n)])
            return n
        }
        return RetryResult(rows: n, dead: command.dead)
    }

    func resume(_ command: ResumeSync) throws -> SyncStatus {
        let ms = epochMilliseconds(clock.now())
        try transactions.write { db in
            try OutboxRepository.resume(db)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .syncResume, subject: nil, details: [:])
        }
        return try status()
    }

    func exportAll(_ command: ExportAll) throws -> ExportAllResult {
        let snapshot = rules.snapshot
        let ms = epochMilliseconds(clock.now())
        let n = try transactions.write { db -> Int in
            let n = try outbox.enqueueEverything(db, snapshot: snapshot, at: ms)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .syncExportAll, subject: nil, details: ["rows": .int(n)])
            return n
        }
        return ExportAllResult(queued: n)
    }

    /// Reads version, project and metadata with the token and compares them with the fields the
    /// mapper writes.
    func check() throws -> SyncCheckReport {
        let client = worker.client
        var problems: [SyncCheckReport.Problem] = []
        let version = try readText(client.read([("content", "version")]))
        guard case .object(let project) = try JSONParser.parse(try readBytes(client.read([("content", "project")]))) else {
            throw DomainError.upstream("REDCap's project info is not a JSON object")
        }
        let metadata = try JSONParser.parse(try readBytes(client.read([("content", "metadata")])))
        if project["has_repeating_instruments_or_events"] != .number(1) && project["has_repeating_instruments_or_events"] != "1" {
            problems.append(.init(field: "daily_monitoring", form: "daily_monitoring",
                                  problem: "the project has no repeating instruments: mark daily_monitoring repeating"))
        }
        let longitudinal = project["is_longitudinal"] == .number(1) || project["is_longitudinal"] == "1"
        if longitudinal != (events.baseline != nil) {
            problems.append(.init(field: "-", form: "-", problem: longitudinal
                ? "the project is longitudinal but no redcap.events are configured"
                : "redcap.events are configured but the project is not longitudinal"))
        }
        var remote: [String: JSONObject] = [:]
        if case .array(let fields) = metadata {
            for f in fields { if case .object(let o) = f, case .string(let name)? = o["field_name"] { remote[name] = o } }
        }
        let written = REDCapFields(rules: rules.snapshot.rules)
        for (form, fields) in [(REDCapFields.baselineForm, written.baseline), (REDCapFields.dailyForm, written.daily)] {
            for (name, validation) in fields {
                for problem in SyncCheck.compare(name: name, form: form, validation: validation, remote: remote[name]) {
                    problems.append(.init(field: name, form: form, problem: problem))
                }
            }
        }
        return SyncCheckReport(redcapVersion: version, projectId: project["project_id"] ?? .null,
                               projectTitle: project["project_title"] ?? .null,
                               fieldsChecked: written.baseline.count + written.daily.count, problems: problems)
    }

    /// Exports our records from REDCap and lists where they differ from what the server holds.
    func reconcile(limit: Int = 200) throws -> ReconcileReport {
        let snapshot = rules.snapshot
        let (local, pendingKeys) = try transactions.read { db -> ([String: [String: String]], Set<String>) in
            var rows: [String: [String: String]] = [:]
            for patient in try PatientRepository.all(db) {
                let risk = snapshot.engine.risk.assess(patient.profile)
                rows["\(patient.studyId.lowercased())#0"] = Dictionary(uniqueKeysWithValues:
                    outbox.mapper.baseline(patient, risk: risk, rules: snapshot.rules))
                let evaluations = try EvaluationRepository.latestPerDate(db, patientId: patient.id)
                for day in try DayRepository.load(db, patientId: patient.id, from: patient.profile.surgeryDate.adding(days: 1),
                                                  to: patient.profile.surgeryDate.adding(days: 400)) {
                    if let row = outbox.mapper.daily(patient, day: day, alert: evaluations[day.date].map(DailyAlert.init),
                                                     rules: snapshot.rules) {
                        rows["\(patient.studyId.lowercased())#\(patient.profile.pod(at: day.date))"] = Dictionary(uniqueKeysWithValues: row)
                    }
                }
            }
            return (rows, try OutboxRepository.queuedKeys(db))
        }
        var remote: [String: [String: String]] = [:]
        let records = Array(Set(local.values.compactMap { $0["record_id"] })).sorted()
        for chunk in stride(from: 0, to: records.count, by: 50).map({ Array(records[$0..<min($0 + 50, records.count)]) }) {
            var fields: [(String, String)] = [("content", "record"), ("type", "flat")]
            for (i, r) in chunk.enumerated() { fields.append(("records[\(i)]", r)) }
            guard case .array(let rows) = try JSONParser.parse(try readBytes(worker.client.read(fields))) else { continue }
            for row in rows {
                guard case .object(let o) = row else { continue }
                var flat: [String: String] = [:]
                for (k, v) in o.members {
                    switch v {
                    case .string(let s): flat[k] = s
                    case .number(let n): flat[k] = JSONSerializer.format(n)
                    default: flat[k] = ""
                    }
                }
                let instance = Int(flat["redcap_repeat_instance"] ?? "") ?? 0
                remote["\((flat["record_id"] ?? "").lowercased())#\(instance)"] = flat
            }
        }
        var differences: [ReconcileReport.Difference] = []
        var missing = 0, differing = 0
        for key in local.keys.sorted() {
            let l = local[key]!
            let parts = key.split(separator: "#")
            guard let r = remote[key] else {
                missing += 1
                if differences.count < limit {
                    differences.append(.init(record: l["record_id"] ?? "", instance: Int(parts[1]) ?? 0, field: "*",
                                             local: "present", remote: "missing", queued: pendingKeys.contains(key)))
                }
                continue
            }
            for (field, value) in l.sorted(by: { $0.key < $1.key }) where field != "redcap_repeat_instance" && field != "redcap_repeat_instrument"
                && !field.hasSuffix("_complete") && (r[field] ?? "") != value {
                differing += 1
                if differences.count < limit {
                    differences.append(.init(record: l["record_id"] ?? "", instance: Int(parts[1]) ?? 0, field: field,
                                             local: value, remote: r[field] ?? "", queued: pendingKeys.contains(key)))
                }
            }
        }
        let extra = remote.keys.filter { local[$0] == nil }.count
        return ReconcileReport(localRows: local.count, remoteRows: remote.count, missingInREDCap: missing, differingFields: differing,
                               onlyInREDCap: extra, differences: differences)
    }

    private func readBytes(_ r: Result<[UInt8], REDCapError>) throws -> [UInt8] {
        switch r {
        case .success(let b): return b
        case .failure(let e): throw DomainError.upstream("REDCap: \(e.message)")
        }
    }
    private func readText(_ r: Result<[UInt8], REDCapError>) throws -> String {
        String(decoding: try readBytes(r), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Compares one field the mapper writes with REDCap's metadata for it.
enum SyncCheck {
    static func compare(name: String, form: String, validation: REDCapFields.Validation, remote: JSONObject?) -> [String] {
        guard let remote else { return ["missing in the REDCap project"] }
        var problems: [String] = []
        func text(_ k: String) -> String { if case .string(let s)? = remote[k] { return s } else { return "" } }
        if text("form_name") != form { problems.append("on form \(text("form_name")), expected \(form)") }
        let type = text("field_type"), v = text("text_validation_type_or_show_slider_number")
        let choices = Set(text("select_choices_or_calculations").split(separator: "|").compactMap {
            $0.split(separator: ",", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces)
        })
        switch validation {
        case .text: if type != "text" { problems.append("field type \(type), expected text") }
        case .notes: if type != "notes" && type != "text" { problems.append("field type \(type), expected notes") }
        case .date: if type != "text" || v != "date_ymd" { problems.append("\(type)/\(v), expected text/date_ymd") }
        case .datetime: if type != "text" || v != "datetime_ymd" { problems.append("\(type)/\(v), expected text/datetime_ymd") }
        case .integer: if type != "text" || v != "integer" { problems.append("\(type)/\(v), expected text/integer") }
        case .number(let d):
            let expected = d == 0 ? "number" : "number_\(d)dp"
            if type != "text" || v != expected { problems.append("\(type)/\(v), expected text/\(expected)") }
        case .yesno: if type != "yesno" { problems.append("field type \(type), expected yesno") }
        case .choice(let codes):
            if type != "radio" && type != "dropdown" { problems.append("field type \(type), expected radio or dropdown") }
            let missing = Set(codes).subtracting(choices)
            if !missing.isEmpty { problems.append("choices lack \(missing.sorted().joined(separator: ", "))") }
        case .checkbox(let codes):
            if type != "checkbox" { problems.append("field type \(type), expected checkbox") }
            let missing = Set(codes).subtracting(choices)
            if !missing.isEmpty { problems.append("choices lack \(missing.sorted().joined(separator: ", "))") }
        }
        return problems
    }
}
