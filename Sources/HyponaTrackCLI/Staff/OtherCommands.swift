import HTJSON

/// lab, item, staff, audit.
enum OtherCommands {
    static let lab = StaffCommand(name: "lab", help: """
        Usage: hyponatrack lab ID --sodium N [--time ISO8601]
               hyponatrack lab ID --delete LAB_ID --reason T

        Enters a lab sodium value (mmol/L; time defaults to now) — the day and the two after it
        are re-evaluated — or deletes a wrong one with a reason (kept in the audit trail).
        """, spec: .init(options: ["sodium", "time", "delete", "reason"])) { a, client, io in
        let id = try a.single("study ID")
        let base = "/v1/patients/\(DaemonClient.segment(id))/labs"
        if let labId = a.value("delete") {
            guard a.value("sodium") == nil else { throw UsageError("--delete and --sodium exclude each other") }
            guard let reason = a.value("reason") else { throw UsageError("--delete needs --reason") }
            let r = try client.post("\(base)/\(DaemonClient.segment(labId))/deletion", ["reason": .string(reason)])
            io.out(a.flag("json") ? JSONSerializer.string(r, pretty: true) : "Deleted lab value \(labId) of \(id); the day was re-evaluated.")
            return ExitCode.success
        }
        guard let sodium = try a.number("sodium") else { throw UsageError("--sodium or --delete is required") }
        var body: JSONObject = JSONObject([("sodium", .number(sodium))])
        if let t = a.value("time") { body["time"] = .string(t) }
        let r = try client.post(base, .object(body))
        if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
        let e = Show.field(r, "evaluation") ?? .null
        io.out("Lab value #\(Show.string(Show.field(r, "labId"))) for \(id) on \(Show.string(Show.field(r, "date"))): Na \(Show.string(Show.field(r, "sodium"))) → level \(Show.string(Show.field(e, "level")).uppercased()) \(PatientCommands.reasonCodes(Show.field(e, "reasons")))")
        return ExitCode.success
    }

    static let item = StaffCommand(name: "item", help: """
        Usage: hyponatrack item ID --date YYYY-MM-DD --list symptoms|reactionTests|tappingTests|desmopressinDoses
                                --delete ITEM_ID --reason T

        Deletes a wrong list item the app sent (kept, marked deleted, with the reason); the day is
        re-evaluated and a retried submission cannot bring it back.
        """, spec: .init(options: ["date", "list", "delete", "reason"])) { a, client, io in
        let id = try a.single("study ID")
        guard let date = a.value("date"), let list = a.value("list"), let item = a.value("delete"), let reason = a.value("reason") else {
            throw UsageError("--date, --list, --delete and --reason are required")
        }
        let path = "/v1/patients/\(DaemonClient.segment(id))/days/\(DaemonClient.segment(date))/\(DaemonClient.segment(list))/\(DaemonClient.segment(item))/deletion"
        let r = try client.post(path, ["reason": .string(reason)])
        io.out(a.flag("json") ? JSONSerializer.string(r, pretty: true) : "Deleted \(list) item \(item) of \(id) on \(date).")
        return ExitCode.success
    }

    static let staff = StaffCommand(name: "staff", help: """
        Usage: hyponatrack staff add NAME --role admin|nurse|viewer
               hyponatrack staff list [--json]
               hyponatrack staff revoke NAME

        Admin only. `add` prints the new member's token once: hand it over securely.
        """, spec: .init(options: ["role"])) { a, client, io in
        guard let sub = a.positionals.first else { throw UsageError("expected add, list or revoke") }
        switch (sub, a.positionals.count) {
        case ("add", 2):
            guard let role = a.value("role") else { throw UsageError("--role is required") }
            let r = try client.post("/v1/staff", ["name": .string(a.positionals[1]), "role": .string(role)])
            if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
            io.out("Added \(Show.string(Show.field(r, "name"))) (\(Show.string(Show.field(r, "role")))). Token (shown once):")
            io.out(Show.string(Show.field(r, "token")))
        case ("list", 1):
            let r = try client.get("/v1/staff")
            if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
            guard case .array(let items) = r else { return ExitCode.success }
            io.out(Show.table(["NAME", "ROLE", "ACTIVE", "CREATED"], items.map { m in
                ["name", "role", "active", "createdAt"].map { Show.string(Show.field(m, $0)) }
            }))
        case ("revoke", 2):
            _ = try client.post("/v1/staff/\(DaemonClient.segment(a.positionals[1]))/revocation")
            io.out("Revoked \(a.positionals[1]); their token no longer works.")
        default:
            throw UsageError("expected `staff add NAME --role R`, `staff list` or `staff revoke NAME`")
        }
        return ExitCode.success
    }

    static let backup = StaffCommand(name: "backup", help: """
        Usage: hyponatrack backup [--json]

        Admin: asks the daemon for a consistent online copy of its database (SQLite's backup API,
        while it keeps serving) under DATA_DIR/backups/, checked (integrity, audit chain) before
        its path is printed. Restore: docs/operations.md.
        """, spec: .init()) { a, client, io in
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument \(a.positionals[0])") }
        let r = try client.post("/v1/backup")
        if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
        io.out(Show.string(Show.field(r, "path")))
        io.error("backup: \(Show.string(Show.field(r, "bytes"))) bytes, integrity \(Show.string(Show.field(r, "integrity"))), audit chain \(Show.field(r, "auditIntact") == .bool(true) ? "intact" : "BROKEN") (\(Show.string(Show.field(r, "auditRows"))) rows)")
        return ExitCode.success
    }

    static let audit = StaffCommand(name: "audit", help: """
        Usage: hyponatrack audit verify
               hyponatrack audit list [--limit N] [--after SEQ] [--subject ID] [--json]

        `verify` recomputes the SHA-256 chain of the audit trail and names the first broken row
        (exit 1 if any). `list` shows entries oldest first.
        """, spec: .init(options: ["limit", "after", "subject"])) { a, client, io in
        switch a.positionals {
        case ["verify"]:
            let r = try client.get("/v1/audit/verify")
            if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)) }
            if Show.field(r, "intact") == .bool(true) {
                if !a.flag("json") { io.out("Audit trail intact: \(Show.string(Show.field(r, "rowsChecked"))) rows verified.") }
                return ExitCode.success
            }
            io.error("Audit trail BROKEN at row \(Show.string(Show.field(r, "firstBrokenSeq"))): \(Show.string(Show.field(r, "reason")))")
            return ExitCode.failure
        case ["list"]:
            var query: [String] = []
            for key in ["limit", "after", "subject"] { if let v = a.value(key) { query.append("\(key)=\(DaemonClient.segment(v))") } }
            let r = try client.get("/v1/audit" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
            if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
            guard case .array(let items) = r else { return ExitCode.success }
            io.out(Show.table(["SEQ", "AT", "ACTOR", "ACTION", "SUBJECT"], items.map { e in
                ["seq", "at", "actor", "action", "subject"].map { Show.string(Show.field(e, $0)) }
            }))
            return ExitCode.success
        default:
            throw UsageError("expected `audit verify` or `audit list`")
        }
    }
}
