import Crypto
import Foundation
import HTJSON

/// The audit trail of a stopped daemon's database file, read and rewritten with the `sqlite3`
/// tool the way someone with file access would, and hashed by an implementation written from
/// the formula documented in `AuditChain` and docs/operations.md (not the daemon's code).
struct AuditTrailFile {
    let path: String

    init(dataDir: URL) { path = dataDir.appendingPathComponent("hyponatrack.sqlite").path }

    struct Row {
        var seq: Int64, at: Int64, actor: String, action: String, subject: String?, details: String
        var prevHash: String, hash: String
    }

    /// How a forger (or the documented formula) hashes a row.
    enum Scheme {
        case sha256
        case hmac(key: [UInt8])
    }

    /// `hex(H(prev_hash "\n" seq "\n" at "\n" f(actor) "\n" f(action) "\n" (f(subject) | "-") "\n" f(details)))`,
    /// `f(s) = <UTF-8 byte count> ":" s`.
    static func hash(_ scheme: Scheme, prevHash: String, _ r: Row) -> String {
        func f(_ s: String) -> String { "\(s.utf8.count):\(s)" }
        let text = [prevHash, String(r.seq), String(r.at), f(r.actor), f(r.action), r.subject.map(f) ?? "-", f(r.details)]
            .joined(separator: "\n")
        switch scheme {
        case .sha256: return Crypto.hex(Crypto.sha256(Array(text.utf8)))
        case .hmac(let key): return Crypto.hex(Crypto.hmacSHA256(key: key, message: Array(text.utf8)))
        }
    }

    /// The key of a key file (hexadecimal text).
    static func key(file: String) throws -> [UInt8] {
        let text = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = Crypto.bytes(hex: text) else { throw TestFailure("\(file) does not hold a hex key") }
        return key
    }

    func rows() throws -> [Row] {
        let json = try JSONParser.parse(Array(try sqlite(["-json", path, "SELECT * FROM audit_log ORDER BY seq"]).utf8))
        guard case .array(let items) = json else { return [] }
        return try items.map { item in
            guard case .object(let o) = item, case .number(let seq)? = o["seq"], case .number(let at)? = o["at"],
                  case .string(let actor)? = o["actor"], case .string(let action)? = o["action"],
                  case .string(let details)? = o["details"], case .string(let prev)? = o["prev_hash"],
                  case .string(let hash)? = o["hash"] else { throw TestFailure("unexpected audit row \(item)") }
            var subject: String?
            if case .string(let s)? = o["subject"] { subject = s }
            return Row(seq: Int64(seq), at: Int64(at), actor: actor, action: action, subject: subject, details: details,
                       prevHash: prev, hash: hash)
        }
    }

    /// Runs `sql` (after dropping the append-only triggers) in one transaction.
    func tamper(_ sql: String) throws {
        _ = try sqlite([path], input: """
            BEGIN;
            DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;
            \(sql)
            COMMIT;
            """)
    }

    /// Re-chains every row with `scheme`, as a forger covering edits would.
    func rehash(_ scheme: Scheme) throws {
        var previous = String(repeating: "0", count: 64), sql = ""
        for row in try rows() {
            let hash = Self.hash(scheme, prevHash: previous, row)
            sql += "UPDATE audit_log SET prev_hash = '\(previous)', hash = '\(hash)' WHERE seq = \(row.seq);\n"
            previous = hash
        }
        try tamper(sql)
    }

    /// Appends `count` rows under `key` after the current head, each with about 400 bytes of
    /// details: a long trail without thousands of requests.
    func appendRows(_ count: Int, key: [UInt8]) throws {
        let last = try rows().last
        var previous = last?.hash ?? String(repeating: "0", count: 64)
        var seq = last?.seq ?? 0
        let at = last?.at ?? 1_700_000_000_000
        var sql = "BEGIN;\n"
        for i in 0..<count {
            seq += 1
            let details = #"{"date":"2026-03-09","changes":{"weightMorningKg":{"before":80.1,"after":80.\#(i % 10)}},"#
                + #""note":"\#(String(repeating: "x", count: 300))"}"#
            let row = Row(seq: seq, at: at + Int64(i), actor: "patient:LOAD-1", action: "day.submit", subject: "LOAD-1",
                          details: details, prevHash: previous, hash: "")
            let hash = Self.hash(.hmac(key: key), prevHash: previous, row)
            sql += "INSERT INTO audit_log VALUES (\(seq), \(row.at), 'patient:LOAD-1', 'day.submit', 'LOAD-1', '\(details)', '\(previous)', '\(hash)');\n"
            previous = hash
        }
        _ = try sqlite([path], input: sql + "COMMIT;\n")
    }

    /// `sqlite3 ARGS` with `input` on stdin; its stdout, or a failure with its stderr.
    @discardableResult
    func sqlite(_ args: [String], input: String? = nil) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = ["-bail"] + args
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        p.standardInput = input == nil ? FileHandle.nullDevice : stdin
        p.standardOutput = out
        p.standardError = err
        try p.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard ChildExit.wait(p) == 0 else { throw TestFailure("sqlite3 \(args.last ?? ""): \(errors)") }
        return String(decoding: output, as: UTF8.self)
    }
}

extension AuditTrailFile {
    /// What `v22_oidc`, `v21_mfa` and `v20_outcomes` added, undone (with their records).
    static let undoOutcomes = """
        DELETE FROM schema_migrations WHERE name = 'v22_oidc';
        DROP TABLE staff_oidc_subjects; ALTER TABLE console_sessions DROP COLUMN via_provider;
        DELETE FROM schema_migrations WHERE name = 'v21_mfa';
        DROP TABLE staff_recovery_codes; DROP TABLE staff_mfa;
        DELETE FROM schema_migrations WHERE name = 'v20_outcomes';
        DROP TABLE outcomes; DROP TABLE rules_shadow; DROP TABLE shadow_evaluations;
        """

    /// What `v19_sites` and the migrations after it added, undone (with their records), leaving
    /// the database as the release before sites left it; the audit trail's append-only triggers stay.
    /// A migration added after `v22_oidc` needs undoing here too.
    static let undoSites = undoOutcomes + """
        DELETE FROM schema_migrations WHERE name = 'v19_sites';
        DROP INDEX patients_site; ALTER TABLE patients DROP COLUMN site_id;
        DROP TABLE staff_sites; ALTER TABLE staff DROP COLUMN all_sites; DROP TABLE sites;
        """

    /// The database as the release before sites (v18_push) left it.
    func downgradeBeforeSites() throws {
        try sqlite([path], input: "BEGIN;\n\(Self.undoSites)\nCOMMIT;\n")
        let left = try sqlite([path, "SELECT name FROM schema_migrations ORDER BY rowid"])
        guard left.split(separator: "\n").last == "v18_push" else { throw TestFailure("not the release before sites: \(left)") }
    }
}
