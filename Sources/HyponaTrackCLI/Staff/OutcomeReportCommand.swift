import HTJSON

/// `hyponatrack outcomes report [--site CODE] [--from D] [--to D] [--json|--csv]`.
enum OutcomeReportCommand {
    static let report = StaffCommand(name: "outcomes report", usage: ["outcomes report [--site CODE] [--from D] [--to D] [--json|--csv]"], about: """
        The outcome report: per cohort (all, low, medium, high risk) the patients, patient-days,
        hyponatremia episodes, episodes warned by a yellow-or-red and by a red day within the
        lookback (sensitivity with its 95 % Wilson interval, median lead time), alerts per 100
        patient-days by level and kind, positive predictive value, contacts per 100 patient-days,
        minutes to acknowledgement; the same for each of your sites; the shadow rules beside the
        live ones. --site: only that site's patients. --csv prints one line per site, cohort and
        figure (site,cohort,figure,value; the site is empty for all your sites together).
        Definitions: docs/clinical-rules.md.
        """, spec: .init(flags: ["csv"], options: ["site", "from", "to"])) { a, client in
        if a.flag("csv") && a.flag("json") { throw UsageError("--csv and --json exclude each other") }
        var query: [String] = []
        for name in ["site", "from", "to"] { if let v = a.value(name) { query.append("\(name)=\(DaemonClient.segment(v))") } }
        let r = try client.get("/v1/outcomes/report" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
        return Reply(json: r) { io in
            var rows = figures(Show.field(r, "cohorts")).map { ("", $0.0, $0.1, $0.2) }
            if case .array(let sites)? = Show.field(r, "sites") {
                for site in sites { rows += figures(Show.field(site, "cohorts")).map { (Show.text(site, "site"), $0.0, $0.1, $0.2) } }
            }
            if a.flag("csv") {
                io.out((["site,cohort,figure,value"] + rows.map { "\($0.0),\($0.1),\($0.2),\($0.3)" }).joined(separator: "\n"))
                return
            }
            io.out("Outcome report (rules \(Show.text(r, "rulesVersion")), lookback \(Show.text(r, "lookbackDays")) days)")
            io.out(Show.table(["SITE", "COHORT", "FIGURE", "VALUE"], rows.map { [$0.0.isEmpty ? "(all)" : $0.0, $0.1, $0.2, $0.3] }))
            if let shadow = Show.field(r, "shadow"), shadow != .null {
                io.out("\nLive against shadow rules \(Show.text(shadow, "otherVersion")) since \(Show.text(shadow, "since"))")
                RuleCommands.show(shadow, otherName: "shadow", io: io)
            }
        }
    }

    /// (cohort, figure, value) for every figure of every cohort of a `cohorts` array, in a fixed order.
    static func figures(_ list: JSONValue?) -> [(String, String, String)] {
        guard case .array(let cohorts)? = list else { return [] }
        var out: [(String, String, String)] = []
        for c in cohorts {
            let name = Show.text(c, "cohort")
            func add(_ figure: String, _ value: JSONValue?) { out.append((name, figure, Show.string(value))) }
            func path(_ keys: String...) -> JSONValue? { keys.reduce(Optional(c)) { v, k in v.flatMap { Show.field($0, k) } } }
            add("patients", path("patients"))
            add("patient_days", path("patientDays"))
            add("episodes", path("episodes"))
            for (key, label) in [("yellowOrRed", "yellow_or_red"), ("red", "red")] {
                for part in ["count", "value", "low", "high"] { add("\(label)_sensitivity_\(part)", path(key, "sensitivity", part)) }
                add("\(label)_median_lead_days", path(key, "medianLeadDays"))
            }
            add("alerts_opened", path("alerts", "opened"))
            for level in ["yellow", "red"] { add("alerts_per_100_\(level)", path("alerts", "per100PatientDays", "byLevel", level)) }
            for kind in ["evaluation", "missing_checkin", "no_data_2d"] {
                add("alerts_per_100_\(kind)", path("alerts", "per100PatientDays", "byKind", kind))
            }
            for part in ["count", "total", "value", "low", "high"] { add("ppv_\(part)", path("positivePredictiveValue", part)) }
            add("contacts_per_100", path("contactsPer100PatientDays"))
            add("ack_minutes_median", path("ackMinutes", "median"))
            add("ack_minutes_p90", path("ackMinutes", "p90"))
        }
        return out
    }
}
