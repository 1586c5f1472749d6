import Foundation
import HTJSON
import HyponaTrackCore
import SQLite

/// The staff side of the sync: status, retry, resume, check, reconcile, export-all.
public final class SyncService: Sendable {
    /// Writes wake the sync worker after COMMIT (they make rows due or queue them).
    let transactions: Transactions
    let outbox: SyncOutbox
    let worker: REDCapSync
    public let rules: ActiveRules
    public let clock: any ServerClock
    public let events: (baseline: String?, daily: String?)

    init(database: Database, outbox: SyncOutbox, worker: REDCapSync, rules: ActiveRules, clock: any ServerClock,
         events: (baseline: String?, daily: String?)) {
        transactions = Transactions(database: database, wakeSync: { worker.wake() }, wakeHooks: {})
        self.outbox = outbox
        self.worker = worker
        self.rules = rules
        self.clock = clock
        self.events = events
        queueAlertBackfill()
    }

    /// Alerts older than migration `v4_alert_log` get their `alert_log` rows once, at the first
    /// start with the sync configured (the migration cannot build rows: it knows neither the study
    /// time zone nor the events). A failure leaves them listed for the next start or `export-all`.
    private func queueAlertBackfill() {
        let logger = worker.logger
        do {
            guard try transactions.read({ try AlertRepository.hasBackfill($0) }) else { return }
            let ms = epochMilliseconds(clock.now())
            let n = try transactions.write { try outbox.enqueueAlertBackfill($0, at: ms) }
            logger.notice("queued the alert_log rows of the alerts stored before this version", ["rows": String(n)])
        } catch {
            logger.error("could not queue the alert_log rows of older alerts; the next start or `hyponatrack sync export-all` will",
                         ["error": "\(error)"])
        }
    }

    public func status() throws -> SyncStatus {
        let ms = epochMilliseconds(clock.now())
        let s = try transactions.read { try OutboxRepository.status($0) }
        return SyncStatus(url: worker.client.url, outbox: s, requestsLastMinute: worker.client.pacer.recent,
                          maxRequestsPerMinute: worker.client.pacer.perMinute, asOf: ms)
    }

    public func retry(_ command: RetrySync) throws -> RetryResult {
        let ms = epochMilliseconds(clock.now())
        let n = try transactions.write { db -> Int in
            let n = try OutboxRepository.retry(db, dead: command.dead)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .syncRetry, subject: nil,
                                details: AuditDetails.SyncRetry(dead: command.dead, rows: n))
            return n
        }
        return RetryResult(rows: n, dead: command.dead)
    }

    public func resume(_ command: ResumeSync) throws -> SyncStatus {
        let ms = epochMilliseconds(clock.now())
        try transactions.write { db in
            try OutboxRepository.resume(db)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .syncResume, subject: nil, details: AuditDetails.None())
        }
        return try status()
    }

    public func exportAll(_ command: ExportAll) throws -> ExportAllResult {
        let snapshot = rules.snapshot
        let ms = epochMilliseconds(clock.now())
        let n = try transactions.write { db -> Int in
            let n = try outbox.enqueueEverything(db, snapshot: snapshot, at: ms)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .syncExportAll, subject: nil, details: AuditDetails.Rows(rows: n))
            return n
        }
        return ExportAllResult(queued: n)
    }

    /// Reads version, project and metadata with the token and compares them with the fields the
    /// mapper writes; whether our repeating instruments are marked repeating comes from
    /// `repeatingFormsEvents` when the token may read it (design rights), else from the
    /// project-wide flag, and the report says which.
    public func check() throws -> SyncCheckReport {
        let client = worker.client
        var problems: [SyncCheckReport.Problem] = []
        let version = try readText(client.read([("content", "version")]))
        guard let project = REDCapObject.parse(try readBytes(client.read([("content", "project")]))) else {
            throw DomainError.upstream("REDCap's project info is not a JSON object")
        }
        guard let metadata = REDCapObject.array(try readBytes(client.read([("content", "metadata")]))) else {
            throw DomainError.upstream("REDCap's metadata is not a JSON array")
        }
        let repeating = checkRepeating(project: project)
        problems += repeating.problems
        let longitudinal = project["is_longitudinal"] == .number(1) || project["is_longitudinal"] == .string("1")
        if longitudinal != (events.baseline != nil) {
            problems.append(.init(field: "-", form: "-", problem: longitudinal
                ? "the project is longitudinal but no redcap.events are configured"
                : "redcap.events are configured but the project is not longitudinal"))
        }
        var remote: [String: REDCapObject] = [:]
        for f in metadata { if case .string(let name)? = f["field_name"] { remote[name] = f } }
        let written = REDCapFields(rules: rules.snapshot.rules)
        for (form, fields) in written.forms {
            for (name, validation) in fields {
                for problem in SyncCheck.compare(name: name, form: form, validation: validation, remote: remote[name]) {
                    problems.append(.init(field: name, form: form, problem: problem))
                }
            }
        }
        if let problem = SyncCheck.noDataLabel(remote: remote["alert_kind"], days: written.noDataDays) {
            problems.append(.init(field: "alert_kind", form: REDCapFields.alertLogForm, problem: problem))
        }
        problems += try checkGroups()
        return SyncCheckReport(redcapVersion: version, projectId: project["project_id"].flatMap(SyncCheckReport.Value.init),
                               projectTitle: project["project_title"].flatMap(SyncCheckReport.Value.init),
                               fieldsChecked: written.forms.reduce(0) { $0 + $1.fields.count }, problems: problems,
                               repeatingCheck: repeating.check)
    }

    /// Our repeating instruments (in the daily event, if longitudinal) must be marked repeating
    /// and the baseline must not be. `repeatingFormsEvents` lists them but needs design rights;
    /// when REDCap refuses it, the project-wide `has_repeating_instruments_or_events` flag is
    /// all there is, and the report says so.
    private func checkRepeating(project: REDCapObject) -> (problems: [SyncCheckReport.Problem], check: SyncCheckReport.RepeatingCheck) {
        var problems: [SyncCheckReport.Problem] = []
        let answer = worker.client.read([("content", "repeatingFormsEvents")])
        guard case .success(let bytes) = answer, let rows = REDCapObject.array(bytes) else {
            let reason: String
            if case .failure(let e) = answer { reason = e.message } else { reason = "an answer that is not a JSON array" }
            if project["has_repeating_instruments_or_events"] != .number(1) && project["has_repeating_instruments_or_events"] != .string("1") {
                for form in REDCapFields.repeatingForms {
                    problems.append(.init(field: form, form: form, problem: "the project has no repeating instruments: mark \(form) repeating"))
                }
            }
            return (problems, .init(perInstrument: false, note: """
                repeatingFormsEvents could not be read (\(reason)); REDCap answers it only to a token with design rights. \
                Only the project-wide repeating flag was checked, not whether \(REDCapFields.repeatingForms.joined(separator: " and ")) \
                are the instruments marked repeating.
                """))
        }
        // Rows are {form_name, custom_form_label} (classic) or {event_name, form_name, …}; a
        // whole repeating event has an empty form_name.
        func marked(_ form: String, event: String?) -> Bool {
            rows.contains { o in
                guard o["form_name"] == .string(form) else { return false }
                guard let event else { return true }
                return o["event_name"] == .string(event)
            }
        }
        for form in REDCapFields.repeatingForms where !marked(form, event: events.daily) {
            let place = events.daily.map { " in event \($0)" } ?? ""
            problems.append(.init(field: form, form: form, problem: "not marked repeating\(place): mark \(form) repeating"))
        }
        if marked(REDCapFields.baselineForm, event: events.baseline) {
            problems.append(.init(field: REDCapFields.baselineForm, form: REDCapFields.baselineForm,
                                  problem: "marked repeating: the baseline must not be repeating"))
        }
        return (problems, .init(perInstrument: true, note: nil))
    }

    /// Each site's DAG must be one of the project's (`content=dag`, read only when a site has
    /// one); a site without a DAG while others have one is named too (its records are in no group).
    private func checkGroups() throws -> [SyncCheckReport.Problem] {
        let sites = try transactions.read { try SiteRepository.all($0) }
        guard sites.contains(where: { $0.redcapDAG != nil }) else { return [] }
        guard let rows = REDCapObject.array(try readBytes(worker.client.read([("content", "dag")]))) else {
            throw DomainError.upstream("REDCap's data access groups are not a JSON array")
        }
        let groups = Set(rows.compactMap { row -> String? in if case .string(let s)? = row["unique_group_name"] { s } else { nil } })
        let field = REDCapMapper.dataAccessGroupField
        return sites.compactMap { site in
            guard let dag = site.redcapDAG else {
                return .init(field: field, form: "site \(site.code)",
                             problem: "the site \(site.code) has no DAG while other sites have one: give it one (hyponatrack site update)")
            }
            guard !groups.contains(dag) else { return nil }
            return .init(field: field, form: "site \(site.code)",
                         problem: "the site \(site.code)'s DAG \(dag) is missing in the project: add it (unique group name \(dag))")
        }
    }

    func readBytes(_ r: Result<[UInt8], REDCapError>) throws -> [UInt8] {
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
    static func compare(name: String, form: String, validation: REDCapFields.Validation, remote: REDCapObject?) -> [String] {
        guard let remote else { return ["missing in the REDCap project"] }
        var problems: [String] = []
        func text(_ k: String) -> String { if case .string(let s)? = remote[k] { return s } else { return "" } }
        if text("form_name") != form { problems.append("on form \(text("form_name")), expected \(form)") }
        let type = text("field_type"), v = text("text_validation_type_or_show_slider_number")
        let choices = Set(Self.choices(text("select_choices_or_calculations")).map(\.code))
        switch validation {
        case .text: if type != "text" { problems.append("field type \(type), expected text") }
        case .notes: if type != "notes" && type != "text" { problems.append("field type \(type), expected notes") }
        case .date: if type != "text" || v != "date_ymd" { problems.append("\(type)/\(v), expected text/date_ymd") }
        case .datetime: if type != "text" || v != "datetime_ymd" { problems.append("\(type)/\(v), expected text/datetime_ymd") }
        case .datetimeSeconds:
            if type != "text" || v != "datetime_seconds_ymd" { problems.append("\(type)/\(v), expected text/datetime_seconds_ymd") }
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

    /// A field's choices as REDCap's metadata writes them (`code, label | code, label`), trimmed.
    static func choices(_ text: String) -> [(code: String, label: String)] {
        text.split(separator: "|").compactMap { choice in
            let parts = choice.split(separator: ",", maxSplits: 1)
            guard let code = parts.first?.trimmingCharacters(in: .whitespaces) else { return nil }
            return (code, parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
    }

    /// Whether `alert_kind`'s `no_data_2d` choice is labelled with the silent days the rules
    /// count (`days`): its only number must be that one, so "No data for two days" or "… 2 …"
    /// under 3 days is a problem. A project without the choice gets "choices lack" instead.
    static func noDataLabel(remote: REDCapObject?, days: Int) -> String? {
        guard case .string(let choices)? = remote?["select_choices_or_calculations"] else { return nil }
        for (code, label) in Self.choices(choices) where code == AlertKind.noData2d.rawValue {
            let numbers = label.split { !$0.isNumber }.compactMap { Int($0) }
            guard numbers != [days] else { return nil }
            let example = Vocabulary(language: .en).noData(days: days, capitalised: true)
            return "the no_data_2d choice is labelled \"\(label)\", which does not name the \(days) silent days the rules count "
                + "(reminders.json missingData.noData.days): relabel it, e.g. \"\(example)\""
        }
        return nil
    }
}
