import HTJSON

/// contact, contacts: the contact log (docs/product.md, "Contact log").
enum ContactCommands {
    static let outcomes = ["reached", "no_answer", "voicemail", "patient_called", "other"]

    static let contact = StaffCommand(name: "contact", usage: ["contact ID --outcome O [--note T] [--alert ALERT] [--json]"], about: """
        Logs a contact attempt with the patient. --outcome: reached, no_answer, voicemail,
        patient_called (the patient called the clinic) or other; --note: what was said or done
        (at most 1,000 characters); --alert: the alert it was about. A contact about an alert not
        yet acknowledged acknowledges it (the escalation stops; every hook told of the alert hears
        of it). Recorded in the audit trail and in the alert's REDCap row.
        """, operands: ["ID"], spec: .init(options: ["outcome", "note", "alert"])) { a, client in
        let id = a.positionals[0]
        let outcome = try a.required("outcome")
        guard outcomes.contains(outcome) else {
            throw UsageError("--outcome expects one of \(outcomes.joined(separator: ", ")), got \"\(outcome)\"")
        }
        var body = JSONObject([("outcome", .string(outcome))])
        if let note = a.value("note") { body["note"] = .string(note) }
        if let alert = try a.integer("alert") {
            guard alert > 0 else { throw UsageError("--alert expects an alert number, got \"\(alert)\"") }
            body["alertId"] = .int(alert)
        }
        let r = try client.post("/v1/patients/\(DaemonClient.segment(id))/contacts", .object(body))
        return Reply(json: r) { io in
            var line = "Logged contact \(Show.text(r, "id")) with \(Show.text(r, "studyId")): \(Show.text(r, "outcome"))"
            if Show.field(r, "alertId") != .null { line += ", alert \(Show.text(r, "alertId"))" }
            if Show.field(r, "acknowledgedAlert") == .bool(true) { line += " (acknowledged)" }
            io.out(line + ".")
        }
    }

    static let contacts = StaffCommand(name: "contacts", usage: ["contacts ID [--json]"], about: """
        The patient's contact attempts, newest first: when (UTC), outcome, the alert it was about,
        who logged it and the note.
        """, operands: ["ID"], spec: .init()) { a, client in
        let r = try client.get("/v1/patients/\(DaemonClient.segment(a.positionals[0]))/contacts")
        guard case .array(let items) = r else { return Reply(json: r) { _ in } }
        return Reply(json: r) { io in
            if items.isEmpty { io.out("No contacts logged."); return }
            io.out(Show.table(["ID", "AT", "OUTCOME", "ALERT", "BY", "NOTE"], items.map { c in
                let alert = Show.field(c, "alertId") == .null ? "-" : Show.text(c, "alertId")
                let note = Show.field(c, "note") == .null ? "-" : Show.text(c, "note")
                return [Show.text(c, "id"), Show.text(c, "at"), Show.text(c, "outcome"), alert, Show.text(c, "by"), note]
            }))
        }
    }
}
