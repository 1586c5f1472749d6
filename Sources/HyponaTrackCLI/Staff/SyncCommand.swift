import HTJSON

/// `hyponatrack sync status|retry [--dead]|resume|check|reconcile|export-all` (admin).
enum SyncCommand {
    static let command = StaffCommand(name: "sync", help: """
        Usage: hyponatrack sync status [--json]
               hyponatrack sync retry [--dead]
               hyponatrack sync resume
               hyponatrack sync check [--json]
               hyponatrack sync reconcile [--json]
               hyponatrack sync export-all

        The REDCap sync (admin). status: pending rows, dead letters with REDCap's messages, halted
        and why, oldest age, last success. retry: send failed rows now (--dead: dead letters too,
        after fixing their cause). resume: continue after a halt (revoked token, IP ban, …) once
        the cause is fixed. check: compare the REDCap project with the fields the server writes.
        reconcile: export our records from REDCap and list differences. export-all: re-queue
        every baseline and day (idempotent).
        """, spec: .init(flags: ["dead"])) { a, client, io in
        guard a.positionals.count == 1, let sub = a.positionals.first else { throw UsageError("expected one subcommand") }
        let json = a.flag("json")
        func f(_ v: JSONValue, _ k: String) -> String { Show.string(Show.field(v, k)) }
        switch sub {
        case "status":
            let r = try client.get("/v1/sync/status")
            if json { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
            io.out("REDCap sync to \(f(r, "url"))")
            io.out(Show.field(r, "halted") == .bool(true) ? "HALTED since \(f(r, "haltedAt")): \(f(r, "haltReason"))\n  fix the cause, then: hyponatrack sync resume" : "running")
            io.out("pending \(f(r, "pending")) (oldest \(f(r, "oldestPendingSeconds")) s), dead letters \(f(r, "deadLetters")), sent \(f(r, "sentRows")) rows")
            io.out("last success \(f(r, "lastSuccessAt")); last failure \(f(r, "lastFailureAt")): \(f(r, "lastFailure"))")
            io.out("requests in the last minute \(f(r, "requestsLastMinute")) of at most \(f(r, "maxRequestsPerMinute"))")
            if case .array(let dead)? = Show.field(r, "dead"), !dead.isEmpty {
                io.out(Show.table(["RECORD", "INSTANCE", "REDCAP SAID"], dead.map { [f($0, "record"), f($0, "instance"), f($0, "error")] }))
            }
            return Show.field(r, "halted") == .bool(true) ? ExitCode.failure : ExitCode.success
        case "retry":
            let r = try client.post("/v1/sync/retry", ["dead": .bool(a.flag("dead"))])
            io.out("\(f(r, "rows")) rows will be sent again now.")
        case "resume":
            _ = try client.post("/v1/sync/resume")
            io.out("Sync resumed.")
        case "check":
            let r = try client.get("/v1/sync/check")
            if json { io.out(JSONSerializer.string(r, pretty: true)) } else {
                io.out("REDCap \(f(r, "redcapVersion")), project \(f(r, "projectId")) \(f(r, "projectTitle")): \(f(r, "fieldsChecked")) fields checked")
                if case .array(let problems)? = Show.field(r, "problems"), !problems.isEmpty {
                    io.out(Show.table(["FIELD", "FORM", "PROBLEM"], problems.map { [f($0, "field"), f($0, "form"), f($0, "problem")] }))
                } else {
                    io.out("The project matches what the server writes.")
                }
            }
            return Show.field(r, "ok") == .bool(true) ? ExitCode.success : ExitCode.failure
        case "reconcile":
            let r = try client.get("/v1/sync/reconcile")
            if json { io.out(JSONSerializer.string(r, pretty: true)) } else {
                io.out("local rows \(f(r, "localRows")), REDCap rows \(f(r, "remoteRows")); missing in REDCap \(f(r, "missingInREDCap")), differing fields \(f(r, "differingFields")), only in REDCap \(f(r, "onlyInREDCap"))")
                if case .array(let d)? = Show.field(r, "differences"), !d.isEmpty {
                    io.out(Show.table(["RECORD", "INSTANCE", "FIELD", "SERVER", "REDCAP", "QUEUED"],
                                      d.map { [f($0, "record"), f($0, "instance"), f($0, "field"), f($0, "local"), f($0, "remote"), f($0, "queued")] }))
                }
            }
            return Show.field(r, "inSync") == .bool(true) ? ExitCode.success : ExitCode.failure
        case "export-all":
            let r = try client.post("/v1/sync/export-all")
            io.out("\(f(r, "queued")) rows queued for REDCap.")
        default:
            throw UsageError("unknown subcommand \(sub)")
        }
        return ExitCode.success
    }
}
