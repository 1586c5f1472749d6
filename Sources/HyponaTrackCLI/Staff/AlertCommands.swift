import HTJSON

/// alerts, ack, resolve, hooks.
enum AlertCommands {
    static func row(_ a: JSONValue) -> [String] {
        let f = { (k: String) in Show.string(Show.field(a, k)) }
        return [f("id"), f("studyId"), f("date"), f("pod"), f("level").uppercased(), f("kind"),
                PatientCommands.reasonCodes(Show.field(a, "reasons")), f("state"), f("tiersFired")]
    }

    /// How many alerts `alerts` lists at once without `--open` (the API's default page).
    static let page = 500

    static let alerts = StaffCommand(name: "alerts", usage: ["alerts [--open] [--site CODE] [--before ALERT] [--json]"], about: """
        Alerts of your sites' patients (--site: of that one), newest first: patient, day, level,
        reasons, state (open, acknowledged, resolved), escalation tiers fired. --open: every
        alert not yet resolved. Without it the newest 500 alerts; when there are older ones the
        last line says how to list them (--before ALERT: only alerts older than that one).
        """, spec: .init(flags: ["open"], options: ["before", "site"])) { a, client in
        var query = a.flag("open") ? ["open=true"] : ["limit=\(page + 1)"]
        if let site = a.value("site") { query.append("site=\(DaemonClient.segment(site))") }
        if let before = a.value("before") {
            guard let id = Int64(before), id > 0 else { throw UsageError("--before needs an alert id") }
            query.append("before=\(id)")
        }
        let r = try client.get("/v1/alerts?" + query.joined(separator: "&"))
        guard case .array(var items) = r else { return Reply(json: r) { _ in } }
        let more = !a.flag("open") && items.count > page
        if more { items.removeLast(items.count - page) }
        let older = more ? Show.string(Show.field(items[items.count - 1], "id")) : nil
        return Reply(json: .array(items)) { io in
            io.out(Show.table(["ID", "STUDY ID", "DATE", "POD", "LEVEL", "KIND", "REASONS", "STATE", "TIERS"], items.map(row)))
            if let older { io.out("Older alerts: hyponatrack alerts\(a.value("site").map { " --site \($0)" } ?? "") --before \(older)") }
        }
    }

    static let ack = StaffCommand(name: "ack", usage: ["ack ALERT [--note T] [--json]"], about: """
        Acknowledges an alert: you are handling it; the escalation stops climbing. Every hook that
        was told about the alert hears of the acknowledgement.
        """, operands: ["ALERT"], spec: .init(options: ["note"])) { a, client in
        let id = a.positionals[0]
        var body = JSONObject()
        if let note = a.value("note") { body["note"] = .string(note) }
        let r = try client.post("/v1/alerts/\(DaemonClient.segment(id))/acknowledgement", .object(body))
        return Reply(json: r) { io in
            io.out("Acknowledged alert \(id) (\(Show.text(r, "studyId")), \(Show.text(r, "level").uppercased())).")
        }
    }

    static let resolve = StaffCommand(name: "resolve", usage: ["resolve ALERT --note T [--sodium N] [--json]"], about: """
        Resolves an alert with what was done (and the measured sodium, mmol/L, if any). A later
        worsening of the same day opens a new alert.
        """, operands: ["ALERT"], spec: .init(options: ["note", "sodium"])) { a, client in
        let id = a.positionals[0]
        var body = JSONObject([("note", .string(try a.required("note")))])
        if let s = try a.number("sodium") { body["sodium"] = .number(s) }
        let r = try client.post("/v1/alerts/\(DaemonClient.segment(id))/resolution", .object(body))
        return Reply(json: r) { io in io.out("Resolved alert \(id) (\(Show.text(r, "studyId"))).") }
    }

    static let hooksStatus = StaffCommand(name: "hooks status", usage: ["hooks status [--json]"], about: """
        Per configured hook: pending and delivered events, dead letters (gave up after 24 h, or
        the endpoint answered 410 and was disabled) with their last error. Exit 1 when any hook
        has dead letters.
        """, spec: .init()) { _, client in
        let r = try client.get("/v1/hooks/status")
        let items: [JSONValue]
        if case .array(let a) = r { items = a } else { items = [] }
        let dead = items.filter { if case .array(let d)? = Show.field($0, "dead") { !d.isEmpty } else { false } }
        return Reply(json: r, status: dead.isEmpty ? ExitCode.success : ExitCode.failure) { io in
            if items.isEmpty { io.out("No hooks are configured."); return }
            io.out(Show.table(["HOOK", "TYPE", "DISABLED", "PENDING", "DELIVERED", "DEAD", "LAST ERROR"], items.map { h in
                ["name", "type", "disabled", "pending", "delivered", "deadLetters", "lastError"].map { Show.text(h, $0) }
            }))
            for h in dead {
                guard case .array(let letters)? = Show.field(h, "dead") else { continue }
                io.out("\nDead letters of \(Show.text(h, "name")):")
                io.out(Show.table(["EVENT", "TYPE", "ATTEMPTS", "ERROR"], letters.map { d in
                    ["eventId", "type", "attempts", "error"].map { Show.text(d, $0) }
                }))
            }
        }
    }
}
