import HTJSON

/// alerts, ack, resolve, hooks.
enum AlertCommands {
    static func row(_ a: JSONValue) -> [String] {
        let f = { (k: String) in Show.string(Show.field(a, k)) }
        return [f("id"), f("studyId"), f("date"), f("pod"), f("level").uppercased(), f("kind"),
                PatientCommands.reasonCodes(Show.field(a, "reasons")), f("state"), f("tiersFired")]
    }

    static let alerts = StaffCommand(name: "alerts", help: """
        Usage: hyponatrack alerts [--open] [--json]

        Alerts, newest first: patient, day, level, reasons, state (open, acknowledged, resolved),
        escalation tiers fired. --open: only those not yet resolved.
        """, spec: .init(flags: ["open"])) { a, client, io in
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument \(a.positionals[0])") }
        let r = try client.get("/v1/alerts" + (a.flag("open") ? "?open=true" : ""))
        if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
        guard case .array(let items) = r else { return ExitCode.success }
        io.out(Show.table(["ID", "STUDY ID", "DATE", "POD", "LEVEL", "KIND", "REASONS", "STATE", "TIERS"], items.map(row)))
        return ExitCode.success
    }

    static let ack = StaffCommand(name: "ack", help: """
        Usage: hyponatrack ack ALERT [--note T]

        Acknowledges an alert: you are handling it; the escalation stops climbing. Every hook that
        was told about the alert hears of the acknowledgement.
        """, spec: .init(options: ["note"])) { a, client, io in
        let id = try a.single("alert id")
        var body = JSONObject()
        if let note = a.value("note") { body["note"] = .string(note) }
        let r = try client.post("/v1/alerts/\(DaemonClient.segment(id))/acknowledgement", .object(body))
        io.out(a.flag("json") ? JSONSerializer.string(r, pretty: true) : "Acknowledged alert \(id) (\(Show.string(Show.field(r, "studyId"))), \(Show.string(Show.field(r, "level")).uppercased())).")
        return ExitCode.success
    }

    static let resolve = StaffCommand(name: "resolve", help: """
        Usage: hyponatrack resolve ALERT --note T [--sodium N]

        Resolves an alert with what was done (and the measured sodium, mmol/L, if any). A later
        worsening of the same day opens a new alert.
        """, spec: .init(options: ["note", "sodium"])) { a, client, io in
        let id = try a.single("alert id")
        guard let note = a.value("note") else { throw UsageError("--note is required") }
        var body = JSONObject([("note", .string(note))])
        if let s = try a.number("sodium") { body["sodium"] = .number(s) }
        let r = try client.post("/v1/alerts/\(DaemonClient.segment(id))/resolution", .object(body))
        io.out(a.flag("json") ? JSONSerializer.string(r, pretty: true) : "Resolved alert \(id) (\(Show.string(Show.field(r, "studyId")))).")
        return ExitCode.success
    }

    static let hooks = StaffCommand(name: "hooks", help: """
        Usage: hyponatrack hooks status [--json]

        Per configured hook: pending and delivered events, dead letters (gave up after 24 h, or
        the endpoint answered 410 and was disabled) with their last error.
        """, spec: .init()) { a, client, io in
        guard a.positionals == ["status"] else { throw UsageError("expected `hooks status`") }
        let r = try client.get("/v1/hooks/status")
        if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
        guard case .array(let items) = r else { return ExitCode.success }
        if items.isEmpty { io.out("No hooks are configured."); return ExitCode.success }
        io.out(Show.table(["HOOK", "TYPE", "DISABLED", "PENDING", "DELIVERED", "DEAD", "LAST ERROR"], items.map { h in
            ["name", "type", "disabled", "pending", "delivered", "deadLetters", "lastError"].map { Show.string(Show.field(h, $0)) }
        }))
        var anyDead = false
        for h in items {
            if case .array(let dead)? = Show.field(h, "dead"), !dead.isEmpty {
                anyDead = true
                io.out("\nDead letters of \(Show.string(Show.field(h, "name"))):")
                io.out(Show.table(["EVENT", "TYPE", "ATTEMPTS", "ERROR"], dead.map { d in
                    ["eventId", "type", "attempts", "error"].map { Show.string(Show.field(d, $0)) }
                }))
            }
        }
        return anyDead ? ExitCode.failure : ExitCode.success
    }
}
