import HTJSON

/// outcome, outcomes: what happened to patients, and the outcome report (docs/product.md, third
/// round, O).
enum OutcomeCommands {
    static let kinds = ["hyponatremia", "ed_visit", "readmission", "other"]

    static let outcome = StaffCommand(name: "outcome", usage: ["outcome ID --kind K --date D [--sodium N] [--note T] [--json]"], about: """
        Records an outcome of the patient: --kind hyponatremia, ed_visit, readmission or other;
        --date YYYY-MM-DD (the patient's local day; within the monitoring window ±30 days);
        --sodium the measured sodium in mmol/L (100-180); --note what happened (at most 1,000
        characters, no names). A lab sodium below outcomes.hyponatremiaBelow is recorded as a
        hyponatremia episode by the server itself. Audited and sent to REDCap's outcome_log.
        """, operands: ["ID"], spec: .init(options: ["kind", "date", "sodium", "note"])) { a, client in
        let kind = try a.required("kind")
        guard kinds.contains(kind) else {
            throw UsageError("--kind expects one of \(kinds.joined(separator: ", ")), got \"\(kind)\"")
        }
        var body = JSONObject([("kind", .string(kind)), ("date", .string(try a.required("date")))])
        if let sodium = try a.number("sodium") { body["sodium"] = .double(sodium) }
        if let note = a.value("note") { body["note"] = .string(note) }
        let r = try client.post("/v1/patients/\(DaemonClient.segment(a.positionals[0]))/outcomes", .object(body))
        return Reply(json: r) { io in
            io.out("Recorded outcome \(Show.text(r, "id")) of \(Show.text(r, "studyId")): \(Show.text(r, "kind")) on \(Show.text(r, "date")) (POD \(Show.text(r, "pod"))).")
        }
    }

    static let group = CommandGroup(name: "outcomes", about: """
        Outcomes. list ID: a patient's outcomes, staff-recorded and lab-derived. report: the
        outcome report (episodes, warned episodes and lead times, sensitivity with its 95 % Wilson
        interval, alert burden, positive predictive value, contacts, time to acknowledgement, by
        risk class; live beside shadow rules). --json prints the server's answer as it is.
        """, subcommands: [list, OutcomeReportCommand.report])

    static let list = StaffCommand(name: "outcomes list", usage: ["outcomes list ID [--json]"], about: """
        The patient's outcomes by date: kind, date and POD, sodium, source (staff or lab), status
        (a lab-derived one is withdrawn when its lab value is deleted), note.
        """, operands: ["ID"], spec: .init()) { a, client in
        let r = try client.get("/v1/patients/\(DaemonClient.segment(a.positionals[0]))/outcomes")
        guard case .array(let items) = r else { return Reply(json: r) { _ in } }
        return Reply(json: r) { io in
            if items.isEmpty { io.out("No outcomes recorded."); return }
            io.out(Show.table(["ID", "DATE", "POD", "KIND", "SODIUM", "SOURCE", "STATUS", "NOTE"], items.map { o in
                [Show.text(o, "id"), Show.text(o, "date"), Show.text(o, "pod"), Show.text(o, "kind"), Show.text(o, "sodium"),
                 Show.text(o, "source"), Show.text(o, "status"), Show.text(o, "note")]
            }))
        }
    }
}
