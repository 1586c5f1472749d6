import HTJSON

/// `hyponatrack sync status|retry [--dead]|resume|check|reconcile|export-all` (admin).
enum SyncCommand {
    static let group = CommandGroup(name: "sync", about: """
        The REDCap sync (admin). status: pending rows, dead letters with REDCap's messages, halted
        and why, oldest age, last success. retry: send failed rows now (--dead: dead letters too,
        after fixing their cause). resume: continue after a halt (revoked token, IP ban, …) once
        the cause is fixed. check: compare the REDCap project with the fields the server writes.
        reconcile: export our records from REDCap and list differences. export-all: re-queue
        every baseline and day (idempotent). --json prints the server's answer as it is.
        `hyponatrack sync SUBCOMMAND --help` describes one subcommand.
        """, subcommands: [status, retry, resume, check, reconcile, exportAll])

    static let status = StaffCommand(name: "sync status", usage: ["sync status [--json]"], about: """
        Pending rows (and the oldest one's age), dead letters with what REDCap said, whether the
        sync is halted and why, the last success and failure, the request rate. Exit 1 while halted.
        """, spec: .init()) { _, client in
        let r = try client.get("/v1/sync/status")
        let halted = Show.field(r, "halted") == .bool(true)
        return Reply(json: r, status: halted ? ExitCode.failure : ExitCode.success) { io in
            let f = { (k: String) in Show.text(r, k) }
            io.out("REDCap sync to \(f("url"))")
            io.out(halted ? "HALTED since \(f("haltedAt")): \(f("haltReason"))\n  fix the cause, then: hyponatrack sync resume" : "running")
            io.out("pending \(f("pending")) (oldest \(f("oldestPendingSeconds")) s), dead letters \(f("deadLetters")), sent \(f("sentRows")) rows")
            io.out("last success \(f("lastSuccessAt")); last failure \(f("lastFailureAt")): \(f("lastFailure"))")
            io.out("requests in the last minute \(f("requestsLastMinute")) of at most \(f("maxRequestsPerMinute"))")
            if case .array(let dead)? = Show.field(r, "dead"), !dead.isEmpty {
                io.out(Show.table(["RECORD", "INSTANCE", "REDCAP SAID"], dead.map { [Show.text($0, "record"), Show.text($0, "instance"), Show.text($0, "error")] }))
            }
        }
    }

    static let retry = StaffCommand(name: "sync retry", usage: ["sync retry [--dead] [--json]"], about: """
        Makes every failed row due now instead of at its next backoff; with --dead the dead
        letters too (after fixing what REDCap refused). Prints how many rows will be sent again.
        """, spec: .init(flags: ["dead"])) { a, client in
        let r = try client.post("/v1/sync/retry", ["dead": .bool(a.flag("dead"))])
        return Reply(json: r) { io in io.out("\(Show.text(r, "rows")) rows will be sent again now.") }
    }

    static let resume = StaffCommand(name: "sync resume", usage: ["sync resume [--json]"], about: """
        Continues a halted sync (revoked token, IP ban, failed certificate check, …) once the cause
        is fixed. --json prints the sync status after resuming.
        """, spec: .init()) { _, client in
        let r = try client.post("/v1/sync/resume")
        return Reply(json: r) { io in io.out("Sync resumed.") }
    }

    static let check = StaffCommand(name: "sync check", usage: ["sync check [--json]"], about: """
        Reads the REDCap project (version, project information, data dictionary) and compares it
        with the fields the server writes; lists every problem. Exit 1 on any.
        """, spec: .init()) { _, client in
        let r = try client.get("/v1/sync/check")
        return Reply(json: r, status: Show.field(r, "ok") == .bool(true) ? ExitCode.success : ExitCode.failure) { io in
            io.out("REDCap \(Show.text(r, "redcapVersion")), project \(Show.text(r, "projectId")) \(Show.text(r, "projectTitle")): \(Show.text(r, "fieldsChecked")) fields checked")
            if case .array(let problems)? = Show.field(r, "problems"), !problems.isEmpty {
                io.out(Show.table(["FIELD", "FORM", "PROBLEM"], problems.map { [Show.text($0, "field"), Show.text($0, "form"), Show.text($0, "problem")] }))
            } else {
                io.out("The project matches what the server writes.")
            }
        }
    }

    static let reconcile = StaffCommand(name: "sync reconcile", usage: ["sync reconcile [--json]"], about: """
        Exports our records from REDCap and lists every difference from what the server holds
        (missing records, differing fields, records only in REDCap). Exit 1 on any.
        """, spec: .init()) { _, client in
        let r = try client.get("/v1/sync/reconcile")
        return Reply(json: r, status: Show.field(r, "inSync") == .bool(true) ? ExitCode.success : ExitCode.failure) { io in
            io.out("local rows \(Show.text(r, "localRows")), REDCap rows \(Show.text(r, "remoteRows")); missing in REDCap \(Show.text(r, "missingInREDCap")), differing fields \(Show.text(r, "differingFields")), only in REDCap \(Show.text(r, "onlyInREDCap"))")
            if case .array(let d)? = Show.field(r, "differences"), !d.isEmpty {
                io.out(Show.table(["RECORD", "INSTANCE", "FIELD", "SERVER", "REDCAP", "QUEUED"], d.map { row in
                    ["record", "instance", "field", "local", "remote", "queued"].map { Show.text(row, $0) }
                }))
            }
        }
    }

    static let exportAll = StaffCommand(name: "sync export-all", usage: ["sync export-all [--json]"], about: """
        Queues every baseline and every day again (idempotent: REDCap ends up with the same
        records). Prints how many rows were queued.
        """, spec: .init()) { _, client in
        let r = try client.post("/v1/sync/export-all")
        return Reply(json: r) { io in io.out("\(Show.text(r, "queued")) rows queued for REDCap.") }
    }
}
