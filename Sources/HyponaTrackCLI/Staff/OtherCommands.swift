import HTJSON

/// lab, item, staff, audit.
enum OtherCommands {
    static let lab = StaffCommand(name: "lab", usage: ["lab ID --sodium N [--time ISO8601] [--json]",
                                                       "lab ID --delete LAB_ID --reason T [--json]"], about: """
        Enters a lab sodium value (mmol/L; time defaults to now) — the day and the two after it
        are re-evaluated — or deletes a wrong one with a reason (kept in the audit trail).
        """, operands: ["ID"], spec: .init(options: ["sodium", "time", "delete", "reason"])) { a, client in
        let id = a.positionals[0]
        let base = "/v1/patients/\(DaemonClient.segment(id))/labs"
        if let labId = a.value("delete") {
            guard a.value("sodium") == nil else { throw UsageError("--delete and --sodium exclude each other") }
            guard let reason = a.value("reason") else { throw UsageError("--delete needs --reason") }
            let r = try client.post("\(base)/\(DaemonClient.segment(labId))/deletion", ["reason": .string(reason)])
            return Reply(json: r) { io in io.out("Deleted lab value \(labId) of \(id); the day was re-evaluated.") }
        }
        guard let sodium = try a.number("sodium") else { throw UsageError("--sodium or --delete is required") }
        var body: JSONObject = JSONObject([("sodium", .number(sodium))])
        if let t = a.value("time") { body["time"] = .string(t) }
        let r = try client.post(base, .object(body))
        return Reply(json: r) { io in
            let e = Show.field(r, "evaluation")
            io.out("Lab value #\(Show.text(r, "labId")) for \(id) on \(Show.text(r, "date")): Na \(Show.text(r, "sodium")) → level \(Show.text(e, "level").uppercased()) \(PatientCommands.reasonCodes(e.flatMap { Show.field($0, "reasons") }))")
        }
    }

    static let item = StaffCommand(name: "item", usage: ["""
        item ID --date YYYY-MM-DD --list symptoms|reactionTests|tappingTests|desmopressinDoses
                                --delete ITEM_ID --reason T [--json]
        """], about: """
        Deletes a wrong list item the app sent (kept, marked deleted, with the reason); the day is
        re-evaluated and a retried submission cannot bring it back.
        """, operands: ["ID"], spec: .init(options: ["date", "list", "delete", "reason"])) { a, client in
        let id = a.positionals[0]
        guard let date = a.value("date"), let list = a.value("list"), let item = a.value("delete"), let reason = a.value("reason") else {
            throw UsageError("--date, --list, --delete and --reason are required")
        }
        let path = "/v1/patients/\(DaemonClient.segment(id))/days/\(DaemonClient.segment(date))/\(DaemonClient.segment(list))/\(DaemonClient.segment(item))/deletion"
        let r = try client.post(path, ["reason": .string(reason)])
        return Reply(json: r) { io in io.out("Deleted \(list) item \(item) of \(id) on \(date).") }
    }

    static let staff = CommandGroup(name: "staff", about: """
        Admin only, except `rotate`, `passwd` and `mfa`, which a member may also run for themself. `add`
        and `rotate` print the member's token once: hand it over securely.
        `hyponatrack staff SUBCOMMAND --help` describes one subcommand.
        """, subcommands: [staffAdd, staffList, staffRevoke, staffRotate, staffPasswd, SiteCommands.staffSites,
                       SecondFactorCommand.staffMFA])

    static let staffPasswd = StaffCommand(name: "staff passwd", usage: ["staff passwd NAME [--json]"], about: """
        Sets NAME's password for the browser console (at least 12 characters). On a terminal it
        asks twice without echo; otherwise it reads the first line of stdin. Admins may set
        anyone's, every other member only their own (otherwise exit 77). Every console session of
        the member ends; their API token keeps working.
        """, operands: ["NAME"], spec: .init()) { a, client in
        let name = a.positionals[0]
        let password: String
        do { password = try PasswordPrompt.read(for: name) } catch let error as PasswordPrompt.Refusal {
            throw DaemonClient.Failure(exitCode: ExitCode.failure, message: error.message)
        }
        _ = try client.put("/v1/staff/\(DaemonClient.segment(name))/password", ["password": .string(password)])
        let r: JSONValue = ["name": .string(name), "passwordSet": true]
        return Reply(json: r) { io in io.out("Password set for \(name); their console sessions have ended.") }
    }

    static let staffAdd = StaffCommand(name: "staff add", usage: ["staff add NAME --role admin|nurse|viewer [--site CODE]… [--all-sites] [--json]"],
                                       about: """
        Adds a staff member (admin only) and prints their token once: hand it over securely.
        Names are 1–64 characters of A-Z a-z 0-9 . _ - and are never reused. A nurse or viewer
        works for the sites given (--site, repeatable) or for all (--all-sites); with neither,
        for the study's only site (refused when it has several). Admins work for every site.
        """, operands: ["NAME"], spec: .init(flags: ["all-sites"], options: ["role"], repeatable: ["site"])) { a, client in
        var body = SiteCommands.body(a)
        body["name"] = .string(a.positionals[0])
        body["role"] = .string(try a.required("role"))
        let r = try client.post("/v1/staff", .object(body))
        return Reply(json: r) { io in
            io.out("Added \(Show.text(r, "name")) (\(Show.text(r, "role")), \(SiteCommands.sitesText(r))). Token (shown once):")
            io.out(Show.text(r, "token"))
        }
    }

    static let staffList = StaffCommand(name: "staff list", usage: ["staff list [--json]"], about: """
        Every staff member with role, whether their token is active, and when they were added (admin only).
        """, spec: .init()) { _, client in
        let r = try client.get("/v1/staff")
        return Reply(json: r) { io in
            guard case .array(let items) = r else { return }
            io.out(Show.table(["NAME", "ROLE", "SITES", "ACTIVE", "CREATED"], items.map { m in
                [Show.text(m, "name"), Show.text(m, "role"), SiteCommands.sitesText(m), Show.text(m, "active"), Show.text(m, "createdAt")]
            }))
        }
    }

    static let staffRevoke = StaffCommand(name: "staff revoke", usage: ["staff revoke NAME [--json]"], about: """
        Revokes a staff member's token at once (admin only). The last active admin cannot be revoked.
        """, operands: ["NAME"], spec: .init()) { a, client in
        let name = a.positionals[0]
        let r = try client.post("/v1/staff/\(DaemonClient.segment(name))/revocation")
        return Reply(json: r) { io in io.out("Revoked \(name); their token no longer works.") }
    }

    static let staffRotate = StaffCommand(name: "staff rotate", usage: ["staff rotate NAME [--json]"], about: """
        Gives a staff member a new token and prints it once; every token they held before is
        refused from the next request on (a lost or leaked token). Admins may rotate anyone's
        token, every other member only their own (otherwise exit 77). After rotating your own,
        switch to the new token at once.
        """, operands: ["NAME"], spec: .init()) { a, client in
        let name = a.positionals[0]
        let r = try client.post("/v1/staff/\(DaemonClient.segment(name))/rotation")
        return Reply(json: r) { io in
            io.out("New token for \(Show.text(r, "name")) (shown once; the old one no longer works):")
            io.out(Show.text(r, "token"))
        }
    }

    static let audit = CommandGroup(name: "audit", about: """
        The audit trail. `verify` recomputes the keyed chain and names the first broken row
        (exit 1 if any); `checkpoint` notes the chain head (SEQ:HEX) and sends it to the hooks
        that subscribe to audit.checkpoint; `list` shows entries oldest first.
        `hyponatrack audit SUBCOMMAND --help` describes one subcommand.
        """, subcommands: [auditVerify, auditCheckpoint, auditList])

    static let auditVerify = StaffCommand(name: "audit verify", usage: ["audit verify [--checkpoint SEQ:HEX] [--json]"], about: """
        Recomputes the audit chain (HMAC-SHA256 under the server's audit key) and names the first
        broken row; exit 1 if the chain is broken. --checkpoint SEQ:HEX (from `audit checkpoint`
        or an audit.checkpoint event) also fails when the chain up to SEQ does not end in HEX:
        history rewritten before the checkpoint, or rows cut off the end.
        """, spec: .init(options: ["checkpoint"])) { a, client in
        let query = a.value("checkpoint").map { "?checkpoint=\(DaemonClient.segment($0))" } ?? ""
        let r = try client.get("/v1/audit/verify" + query)
        let intact = Show.field(r, "intact") == .bool(true)
        return Reply(json: r, status: intact ? ExitCode.success : ExitCode.failure) { io in
            // Only an object is a checked checkpoint (null, or absent, when none was given).
            let checkpoint: JSONValue? = if case .object? = Show.field(r, "checkpoint") { Show.field(r, "checkpoint") } else { nil }
            if intact {
                io.out("Audit trail intact: \(Show.text(r, "rowsChecked")) rows verified."
                       + (checkpoint.map { " It matches checkpoint \(Show.text($0, "checkpoint"))." } ?? ""))
                return
            }
            if Show.field(r, "firstBrokenSeq") != .null {
                io.error("Audit trail BROKEN at row \(Show.text(r, "firstBrokenSeq")): \(Show.text(r, "reason"))")
            }
            if let checkpoint, Show.field(checkpoint, "matches") == .bool(false) {
                io.error("Audit trail does NOT match checkpoint \(Show.text(checkpoint, "checkpoint")): \(Show.text(checkpoint, "reason"))")
            }
        }
    }

    static let auditCheckpoint = StaffCommand(name: "audit checkpoint", usage: ["audit checkpoint [--json]"], about: """
        Admin: records a checkpoint of the audit chain (an audit.checkpoint row) and sends its
        SEQ:HEX to the hooks that subscribe to audit.checkpoint; prints SEQ:HEX. Keep it
        somewhere the server cannot write, and check later with `audit verify --checkpoint`.
        """, spec: .init()) { _, client in
        let r = try client.post("/v1/audit/checkpoints")
        return Reply(json: r) { io in
            io.out(Show.text(r, "checkpoint"))
            if case .array(let hooks)? = Show.field(r, "hooks"), hooks.isEmpty {
                io.error("audit checkpoint: no hook subscribes to audit.checkpoint; note the line above yourself")
            }
        }
    }

    static let auditList = StaffCommand(name: "audit list", usage: ["audit list [--limit N] [--after SEQ] [--subject ID] [--json]"],
                                        about: """
        Audit trail entries, oldest first: sequence number, time, actor, action, subject.
        --limit: at most N entries; --after: only entries after SEQ; --subject: one patient or member.
        """, spec: .init(options: ["limit", "after", "subject"])) { a, client in
        var query: [String] = []
        for key in ["limit", "after", "subject"] { if let v = a.value(key) { query.append("\(key)=\(DaemonClient.segment(v))") } }
        let r = try client.get("/v1/audit" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
        return Reply(json: r) { io in
            guard case .array(let items) = r else { return }
            io.out(Show.table(["SEQ", "AT", "ACTOR", "ACTION", "SUBJECT"], items.map { e in
                ["seq", "at", "actor", "action", "subject"].map { Show.text(e, $0) }
            }))
        }
    }
}
