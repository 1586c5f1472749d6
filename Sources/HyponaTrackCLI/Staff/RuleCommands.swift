import Foundation
import HTJSON

/// `hyponatrack rules backtest|shadow|promote` (admin; docs/product.md, third round, O).
enum RuleCommands {
    static let group = CommandGroup(name: "rules", about: """
        Trying rules on the study's own data (admin). backtest: replay every stored patient-day
        under the rule files of DIR and compare with the live rules (writes nothing). shadow:
        evaluate every new day under DIR's rules as well, with no alert, hook, patient or REDCap
        effect (--off ends it). promote: make the shadow rules live. --json prints the server's
        answer as it is. `hyponatrack rules SUBCOMMAND --help` describes one subcommand.
        """, subcommands: [backtest, shadow, promote])

    static let backtest = StaffCommand(name: "rules backtest", usage: ["rules backtest --rules DIR [--site CODE] [--from D] [--to D] [--json]"], about: """
        Replays every stored patient-day (--site: only that site's patients; --from/--to: only those dates) through the clinical
        core under the four rule files in DIR, as the live evaluation saw it, and prints the live
        × candidate matrix of levels, alerts per 100 patient-days, sensitivity, median lead time
        and positive predictive value live and candidate, and every day whose level changes.
        Writes nothing but one audit row. Invalid rule files are refused naming file and key.
        """, spec: .init(options: ["rules", "site", "from", "to"])) { a, client in
        var query: [String] = []
        for name in ["site", "from", "to"] { if let v = a.value(name) { query.append("\(name)=\(DaemonClient.segment(v))") } }
        let path = "/v1/rules/backtest" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let r = try client.post(path, try body(a.required("rules")))
        return Reply(json: r) { io in
            io.out("Candidate rules \(Show.text(r, "candidateVersion"))")
            if let c = Show.field(r, "comparison") { show(c, otherName: "candidate", io: io) }
        }
    }

    static let shadow = StaffCommand(name: "rules shadow", usage: ["rules shadow --rules DIR [--json]", "rules shadow --off [--json]"], about: """
        Sets the shadow rules to the four rule files in DIR: every evaluation from now on is also
        computed and stored under them (no alert, hook, patient-visible or REDCap effect), and the
        outcome report compares them with the live rules from this moment. Kept across restarts
        and over rules.shadow in the configuration. --off turns them off.
        """, spec: .init(flags: ["off"], options: ["rules"])) { a, client in
        let r: JSONValue
        if a.flag("off") {
            if a.value("rules") != nil { throw UsageError("--off and --rules exclude each other") }
            r = try client.delete("/v1/rules/shadow")
        } else {
            r = try client.put("/v1/rules/shadow", try body(a.required("rules")))
        }
        return Reply(json: r) { io in
            let shadow = Show.field(r, "shadowVersion") == .null ? "off" : Show.text(r, "shadowVersion")
            io.out("Shadow rules: \(shadow); live rules \(Show.text(r, "liveVersion")).")
        }
    }

    static let promote = StaffCommand(name: "rules promote", usage: ["rules promote [--json]"], about: """
        Makes the shadow rules live: the live rule files are replaced (each written atomically,
        the old kept as *.previous) and reloaded as SIGHUP does; the shadow is turned off. Stored
        days keep their evaluations. Audited.
        """, spec: .init()) { _, client in
        let r = try client.post("/v1/rules/promote")
        return Reply(json: r) { io in io.out("The shadow rules are live: rules version \(Show.text(r, "liveVersion")).") }
    }

    /// The four files of `directory` as the API's body: each file's text as a string.
    static func body(_ directory: String) throws -> JSONValue {
        var body = JSONObject()
        for (key, file) in [("riskModel", "risk-model.json"), ("thresholds", "thresholds.json"), ("reminders", "reminders.json"),
                            ("instructions", "instructions.json")] {
            let path = (directory as NSString).appendingPathComponent(file)
            guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("--rules: cannot read \(path)") }
            body[key] = .string(String(decoding: data, as: UTF8.self))
        }
        return .object(body)
    }

    /// A live-versus-other comparison for people.
    static func show(_ c: JSONValue, otherName: String, io: CLIOutput) {
        let f = { (k: String) in Show.text(c, k) }
        io.out("Patient-days compared: \(f("daysCompared")) (evaluated under other rules: \(f("daysUnderOtherRules")), not evaluated: \(f("daysNotEvaluated")))")
        let levels = ["green", "yellow", "red"]
        let matrix = Show.field(c, "matrix")
        io.out(Show.table(["LIVE \\ \(otherName.uppercased())"] + levels.map { $0.uppercased() }, levels.map { live in
            [live] + levels.map { other in Show.text(matrix.flatMap { Show.field($0, live) }, other) }
        }))
        io.out(Show.table(["", "LIVE", otherName.uppercased()], [
            ("alerts per 100 patient-days", "alertsPer100PatientDays"),
        ].map { label, key in [label, Show.text(Show.field(c, "live"), key), Show.text(Show.field(c, "other"), key)] }
            + [("sensitivity", "sensitivity"), ("sensitivity (red)", "redSensitivity"), ("positive predictive value", "positivePredictiveValue")]
            .map { label, key in
                [label, share(Show.field(c, "live").flatMap { Show.field($0, key) }), share(Show.field(c, "other").flatMap { Show.field($0, key) })]
            }
            + [["median lead time (days)", Show.text(Show.field(c, "live"), "medianLeadDays"), Show.text(Show.field(c, "other"), "medianLeadDays")]]))
        io.out("Days whose level changes: \(f("changedDayCount"))")
        if case .array(let days)? = Show.field(c, "changedDays"), !days.isEmpty {
            io.out(Show.table(["STUDY ID", "DATE", "POD", "LIVE", otherName.uppercased(), "REASONS"], days.map { d in
                [Show.text(d, "studyId"), Show.text(d, "date"), Show.text(d, "pod"), Show.text(d, "live"), Show.text(d, "candidate"),
                 Show.text(d, "reasons")]
            }))
        }
    }

    /// `count/total = value [low–high]`.
    static func share(_ p: JSONValue?) -> String {
        guard let p else { return "-" }
        return "\(Show.text(p, "count"))/\(Show.text(p, "total")) = \(Show.text(p, "value")) [\(Show.text(p, "low"))–\(Show.text(p, "high"))]"
    }
}
