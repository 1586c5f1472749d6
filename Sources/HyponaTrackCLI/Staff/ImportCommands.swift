import Foundation
import HTJSON

/// import fhir|apple-health, proposals, confirm, reject (docs/product.md, "Imports, proposed then confirmed").
enum ImportCommands {
    static let group = CommandGroup(name: "import", about: """
        Imports lab values (FHIR R4) and a patient's Apple Health export. Nothing is applied: each
        value becomes a proposal a nurse confirms or rejects (`hyponatrack proposals`).
        `hyponatrack import fhir --help` and `hyponatrack import apple-health --help` for details.
        """, subcommands: [fhir, appleHealth])

    static let fhir = StaffCommand(name: "import fhir", usage: ["import fhir FILE [--json]"], about: """
        Sends a FHIR R4 Observation or Bundle (collection, transaction, batch, searchset) of serum,
        plasma or blood sodium results. Prints what was proposed and every entry that was not, with
        the reason. Exit 0 when the file was read (even with refused entries), 1 when it is not a
        valid file (then nothing is proposed).
        """, operands: ["FILE"], spec: .init()) { a, client in
        let path = a.positionals[0]
        _ = try head(path)
        let r = try client.upload("/v1/imports/fhir", file: path, contentType: "application/fhir+json")
        return Reply(json: r) { io in report(r, io) }
    }

    static let appleHealth = StaffCommand(name: "import apple-health", usage: ["import apple-health ID FILE [--json]"], about: """
        Sends a patient's Apple Health export (export.zip as the Health app writes it, or its
        export.xml). The server reduces it per local day of the monitoring window (weight, steps,
        HRV, resting heart rate, sleep) and proposes each value, and the sodium results of its
        clinical records. Exit 0 when the file was read, 1 when it is damaged or truncated.
        """, operands: ["ID", "FILE"], spec: .init()) { a, client in
        let id = a.positionals[0]
        let path = a.positionals[1]
        let type = try head(path).starts(with: [0x50, 0x4B]) ? "application/zip" : "application/xml"
        let r = try client.upload("/v1/patients/\(DaemonClient.segment(id))/imports/apple-health", file: path, contentType: type)
        return Reply(json: r) { io in report(r, io) }
    }

    /// How many proposals `proposals` lists at once (the API's default page).
    static let page = 500

    static let proposals = StaffCommand(name: "proposals", usage: ["proposals [ID] [--status S] [--before PROPOSAL] [--json]"], about: """
        Imported values waiting for a decision (--status pending, the default; or confirmed,
        rejected, superseded, withdrawn), newest first: source, field, date, the value, the value
        it would replace and the value stored now. CONFLICT marks a value that changed since the
        proposal was made (a later entry by the patient): confirming it needs --override. At most
        500 at once; when there are older ones the last lines say how many in all and how to list
        them (--before PROPOSAL: only proposals older than that one).
        """, repeatsLast: true, spec: .init(options: ["status", "before"])) { a, client in
        guard a.positionals.count <= 1 else { throw UsageError("unexpected argument \(a.positionals[1])") }
        var query = "?status=\(DaemonClient.segment(a.value("status") ?? "pending"))&limit=\(page + 1)"
        if let id = a.positionals.first { query += "&studyId=\(DaemonClient.segment(id))" }
        if let before = a.value("before") {
            guard let id = Int64(before), id > 0 else { throw UsageError("--before needs a proposal id") }
            query += "&before=\(id)"
        }
        let r = try client.get("/v1/proposals" + query)
        guard case .array(var items)? = Show.field(r, "proposals") else { return Reply(json: r) { _ in } }
        let more = items.count > page
        if more { items.removeLast(items.count - page) }
        let older = more ? Show.string(Show.field(items[items.count - 1], "id")) : nil
        return Reply(json: .array(items)) { io in
            guard !items.isEmpty else { io.out("No proposals."); return }
            io.out(Show.table(["ID", "STUDY ID", "SOURCE", "FIELD", "DATE", "VALUE", "REPLACES", "NOW", "STATUS"], items.map { p in
                ["id", "studyId", "source", "field", "date", "value", "replaces", "current"].map { Show.text(p, $0) }
                    + [Show.text(p, "status") + (Show.field(p, "conflict") == .bool(true) ? " CONFLICT" : "")]
            }))
            if let older {
                io.out("\(Show.text(r, "total")) in all. Older proposals: hyponatrack proposals"
                       + (a.positionals.first.map { " \($0)" } ?? "") + (a.value("status").map { " --status \($0)" } ?? "")
                       + " --before \(older)")
            }
        }
    }

    static let confirm = decision("confirm", about: """
        Confirms proposals: each value is applied as a staff correction (the day is re-evaluated,
        alerts, REDCap and the audit trail follow). A proposal whose value to replace changed since
        it was made is refused unless --override (look at `hyponatrack proposals` first).
        """, options: ["note"], flags: ["override"])

    static let reject = decision("reject", about: "Rejects proposals; nothing is applied. The note is kept with the decision.",
                                 options: ["note"], flags: [])

    static func decision(_ verb: String, about: String, options: Set<String>, flags: Set<String>) -> StaffCommand {
        let extra = flags.contains("override") ? " [--override]" : ""
        return StaffCommand(name: verb, usage: ["\(verb) PROPOSAL... [--note T]\(extra) [--json]"], about: about,
                            operands: ["PROPOSAL"], repeatsLast: true, spec: .init(flags: flags, options: options)) { a, client in
            var body = JSONObject()
            if let note = a.value("note") { body["note"] = .string(note) }
            if a.flag("override") { body["override"] = true }
            var answers: [JSONValue] = []
            for id in a.positionals {
                answers.append(try client.post("/v1/proposals/\(DaemonClient.segment(id))/\(verb)", .object(body)))
            }
            return Reply(json: answers.count == 1 ? answers[0] : .array(answers)) { io in
                for p in answers {
                    io.out("Proposal \(Show.text(p, "id")) (\(Show.text(p, "studyId")) \(Show.text(p, "field")) \(Show.text(p, "date")) "
                           + "= \(Show.text(p, "value"))): \(Show.text(p, "status")).")
                }
            }
        }
    }

    /// The first bytes of a readable regular file (the zip signature decides the content type).
    static func head(_ path: String) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let handle = FileHandle(forReadingAtPath: path) else {
            throw DaemonClient.Failure(exitCode: ExitCode.failure, message: "cannot read \(path)")
        }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: 4)) ?? Data())
    }

    static func report(_ r: JSONValue, _ io: CLIOutput) {
        let proposed = Show.field(r, "proposed").flatMap { if case .array(let a) = $0 { a.count } else { nil } } ?? 0
        io.out("Proposed \(proposed) value\(proposed == 1 ? "" : "s") (see `hyponatrack proposals`); "
               + "\(Show.text(r, "skippedOutsideWindow")) records outside the monitoring window skipped.")
        if case .array(let withdrawn)? = Show.field(r, "withdrawn"), !withdrawn.isEmpty {
            io.out("Withdrawn (entered in error): proposals \(Show.string(.array(withdrawn))).")
        }
        if case .array(let refused)? = Show.field(r, "refused"), !refused.isEmpty {
            io.out("Not proposed:")
            io.out(Show.table(["ENTRY", "REASON", "DETAIL"], refused.map { e in ["entry", "reason", "detail"].map { Show.text(e, $0) } }))
            if case .number(let total)? = Show.field(r, "refusedTotal"), total > Double(refused.count) {
                io.out("\(Show.text(r, "refusedTotal")) refused in all; the first \(refused.count) are listed.")
            }
        }
    }
}
