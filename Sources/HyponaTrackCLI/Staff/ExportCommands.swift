import Foundation
import HTJSON

/// export days|alerts|contacts|outcomes, stats.
enum ExportCommands {
    static let export = CommandGroup(name: "export", about: """
        CSV exports (RFC 4180: UTF-8, CRLF, a header row of REDCap field names, record_id first;
        times in each patient's time zone). Each export is recorded in the audit trail.
        `hyponatrack export SUBCOMMAND --help` describes one subcommand.
        """, subcommands: [days, alerts, contacts, outcomes])

    static let days = ExportCommand(kind: "days", about: """
        One row per patient-day with any stored measurement or lab value: every measurement, the
        level and the reason codes, the columns of REDCap's daily_monitoring instrument (several
        entries of a day flattened as the REDCap row is). Every patient, or --patient ID.
        """)

    static let alerts = ExportCommand(kind: "alerts", about: """
        One row per alert: the columns of REDCap's alert_log instrument (opened, first
        acknowledged, resolved, minutes to each) plus alert_ack_by and alert_resolved_by (staff
        names). Every patient, or --patient ID.
        """)

    static let contacts = ExportCommand(kind: "contacts", about: """
        One row per contact attempt: record_id, contact_id, contact_at (the patient's time zone),
        outcome, alert_id (blank for a contact about no alert), staff, note. Every patient, or
        --patient ID.
        """)

    static let outcomes = ExportCommand(kind: "outcomes", about: """
        One row per outcome, withdrawn ones too: the columns of REDCap's outcome_log instrument
        (kind, date and POD, sodium, source staff or lab, status, note) plus outcome_recorded_at
        (the patient's time zone) and outcome_recorded_by. Every patient, or --patient ID.
        """)

    static let stats = StaffCommand(name: "stats", usage: ["stats [--patient ID] [--site CODE] [--json]"], about: """
        Cohort statistics (all, and per risk class): patients enrolled, active, finished,
        withdrawn; patient-days; adherence (done / due tasks over completed monitored days);
        days per level; alerts per 100 patient-days by level and kind; median and p90 minutes to
        acknowledgement and to resolution; missing-data alerts. --patient ID: one patient's;
        --site CODE: that site's patients' (else all of your sites').
        """, spec: .init(options: ["patient", "site"])) { a, client in
        let r = try client.get("/v1/statistics" + SiteQuery.text([("studyId", a.value("patient")), ("site", a.value("site"))]))
        return Reply(json: r) { io in io.out(StatisticsTable.text(r)) }
    }
}

/// `export days` / `export alerts` / `export contacts`: a GET of the CSV, written to FILE or to standard output as
/// it came (`DownloadOutput`; no --json: the answer is not JSON).
struct ExportCommand: GroupMember {
    let kind: String
    let about: String
    var name: String { "export \(kind)" }
    var usage: [String] { ["export \(kind) [--patient ID] [--site CODE] [-o FILE]"] }
    var spec: Arguments.Spec { .init(options: ["patient", "site", "output"]) }
    var help: String {
        Help.text(usage, about + " --site CODE: that site's patients only (else all of your sites').\n" + DownloadOutput.help("CSV"))
    }

    func path(patient: String?, site: String? = nil) -> String {
        switch (kind, patient) {
        case ("days", let id?): return "/v1/patients/\(DaemonClient.segment(id))/export.csv"
        default: return "/v1/export/\(kind).csv" + SiteQuery.text([("studyId", patient), ("site", site)])
        }
    }

    func run(_ args: [String], io: CLIOutput) -> Int32 {
        let parsed: Arguments
        do throws(UsageError) {
            parsed = try Arguments(args, spec: spec)
            if parsed.flag("help") { io.out(help); return ExitCode.success }
            if let extra = parsed.positionals.first { throw UsageError("unexpected argument \(extra)") }
            if parsed.value("patient")?.isEmpty == true { throw UsageError("--patient needs a study ID") }
            if parsed.value("output")?.isEmpty == true { throw UsageError("-o needs a file name") }
        } catch {
            return usageError(error, usage: usage, io: io)
        }
        do {
            let client = DaemonClient(server: parsed.value("server"), token: try GlobalOptions.token(parsed))
            let csv = try client.download(path(patient: parsed.value("patient"), site: parsed.value("site")), accept: "text/csv")
            try DownloadOutput.deliver(csv, output: parsed.value("output"), io: io) { file in
                let rows = max(0, csv.split(separator: 10, omittingEmptySubsequences: false).count - 2)
                return "Wrote \(rows) \(kind.dropLast()) rows to \(file)."
            }
            return ExitCode.success
        } catch {
            return failed(error, io: io)
        }
    }
}

/// `stats` without --json: one column per cohort.
enum StatisticsTable {
    static func text(_ r: JSONValue) -> String {
        guard case .array(let cohorts)? = Show.field(r, "cohorts") else { return "No statistics." }
        func value(_ c: JSONValue, _ path: [String]) -> JSONValue? {
            path.reduce(Optional(c)) { v, key in v.flatMap { Show.field($0, key) } }
        }
        func number(_ c: JSONValue, _ path: [String]) -> String { Show.string(value(c, path)) }
        func percent(_ c: JSONValue, _ path: [String]) -> String {
            guard case .number(let v)? = value(c, path) else { return "-" }
            return String(format: "%.1f %%", v * 100)
        }
        // no_data_2d's silent days as the server's rules count them (missingData.noData.days);
        // the code itself from a server that does not say.
        var noData = "no_data_2d"
        if case .number(let days)? = Show.field(r, "noDataDays") { noData = "no data \(Int(days)) day\(days == 1 ? "" : "s")" }
        let lines: [(String, (JSONValue) -> String)] = [
            ("patients enrolled", { number($0, ["patients", "enrolled"]) }),
            ("  active", { number($0, ["patients", "active"]) }),
            ("  finished", { number($0, ["patients", "finished"]) }),
            ("  withdrawn", { number($0, ["patients", "withdrawn"]) }),
            ("patient-days", { number($0, ["patientDays"]) }),
            ("adherence", { percent($0, ["adherence"]) }),
            ("days green", { number($0, ["daysByLevel", "green"]) }),
            ("days yellow", { number($0, ["daysByLevel", "yellow"]) }),
            ("days red", { number($0, ["daysByLevel", "red"]) }),
            ("days no data", { number($0, ["daysByLevel", "none"]) }),
            ("yellow alerts /100 days", { number($0, ["alertsPer100PatientDays", "byLevel", "yellow"]) }),
            ("red alerts /100 days", { number($0, ["alertsPer100PatientDays", "byLevel", "red"]) }),
            ("evaluation alerts /100 days", { number($0, ["alertsPer100PatientDays", "byKind", "evaluation"]) }),
            ("missing check-in /100 days", { number($0, ["alertsPer100PatientDays", "byKind", "missing_checkin"]) }),
            ("\(noData) /100 days", { number($0, ["alertsPer100PatientDays", "byKind", "no_data_2d"]) }),
            ("minutes to ack, median", { number($0, ["ackMinutes", "median"]) }),
            ("minutes to ack, p90", { number($0, ["ackMinutes", "p90"]) }),
            ("alerts acknowledged", { number($0, ["ackMinutes", "n"]) }),
            ("minutes to resolve, median", { number($0, ["resolveMinutes", "median"]) }),
            ("minutes to resolve, p90", { number($0, ["resolveMinutes", "p90"]) }),
            ("alerts resolved", { number($0, ["resolveMinutes", "n"]) }),
            ("missing-data alerts", { number($0, ["missingDataAlerts"]) }),
        ]
        let header = [Show.text(r, "studyId") == "-" ? "" : "patient \(Show.text(r, "studyId"))"]
            + cohorts.map { Show.text($0, "cohort").uppercased() }
        return Show.table(header, lines.map { label, cell in [label] + cohorts.map(cell) })
            + "\n\nGenerated at \(Show.text(r, "generatedAt")). Adherence: done / due tasks over completed monitored days."
    }
}

/// `?name=value&…` of the options given (each value percent-encoded), or "" when none is.
enum SiteQuery {
    static func text(_ pairs: [(String, String?)]) -> String {
        let given = pairs.compactMap { name, value in value.map { "\(name)=\(DaemonClient.segment($0))" } }
        return given.isEmpty ? "" : "?" + given.joined(separator: "&")
    }
}
