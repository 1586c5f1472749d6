import Foundation
import Synchronization
import Testing
import HTJSON

/// The per-address bucket in front of `POST /v1/activate` and the bounded cost of refused
/// activations, against the real daemon. Client addresses come from `X-Forwarded-For`, which the
/// daemon believes because the tests' loopback peer is its trusted proxy.
@Suite struct AnonymousLimitTests {
    static let wrongCode = "ZZZZZ-ZZZZZ"

    static func daemon(_ extra: String = "") throws -> TestDaemon {
        let config = try ConfigDirectory(server: #"{"trustedProxies": ["127.0.0.1"]\#(extra)}"#)
        return try TestDaemon(configFile: config.serverFile)
    }

    /// Enrolls `studyId` and returns its activation code.
    static func enroll(_ d: TestDaemon, _ studyId: String) throws -> String {
        let r = try d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile(studyId))
        guard r.status == 201, case .string(let code)? = r["activationCode"] else { throw TestFailure("enroll failed: \(r.text)") }
        return code
    }

    static func activate(_ d: TestDaemon, _ studyId: String, _ code: String, from ip: String) throws -> TestDaemon.Response {
        try d.request(.post, "/v1/activate", body: ["studyId": .string(studyId), "code": .string(code)],
                      headers: [("X-Forwarded-For", ip)])
    }

    @Test func thirtyRefusedAttemptsFromOneAddressAreThrottledWhileFiftyActivationsAtSpeedAreNot() throws {
        let d = try Self.daemon()
        let codes = try (0..<52).map { try Self.enroll(d, "WARD-\($0)") }
        let started = Date()
        for i in 1...20 { #expect(try Self.activate(d, "NOPE-\(i)", Self.wrongCode, from: "198.51.100.7").status == 401) }
        // A cohort activated at speed from the same ward address, eight at a time: never throttled.
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in stride(from: worker, to: 50, by: 8) {
                let status = (try? Self.activate(d, "WARD-\(i)", codes[i], from: "198.51.100.7"))?.status ?? 0
                statuses.withLock { $0.append(status) }
            }
        }
        #expect(statuses.withLock { $0 } == Array(repeating: 200, count: 50))
        var refused = 20
        var limited: TestDaemon.Response?
        while refused < 80 {
            let r = try Self.activate(d, "NOPE-\(refused)", Self.wrongCode, from: "198.51.100.7")
            if r.status == 429 { limited = r; break }
            #expect(r.status == 401)
            refused += 1
        }
        // One token comes back every 2 s while the test runs: a slow machine may see a few more.
        let refilled = Int(Date().timeIntervalSince(started) / 2) + 1
        #expect(refused >= 30 && refused <= 30 + refilled, "\(refused) refused attempts before the first 429")
        #expect(limited?.errorCode == "rate_limited", "\(limited?.text ?? "no 429")")
        let retryAfter = limited?.headers["Retry-After"].flatMap { Int($0) }
        #expect(retryAfter.map { (1...2).contains($0) } == true, "Retry-After: \(limited?.headers["Retry-After"] ?? "-")")
        let rightCode = try Self.activate(d, "WARD-50", codes[50], from: "198.51.100.7")
        #expect(rightCode.status == 429 && rightCode.errorCode == "rate_limited", "an empty bucket refuses even the right code")
        #expect(try Self.activate(d, "WARD-51", codes[51], from: "203.0.113.5").status == 200, "another address is not limited")
        let metrics = PrometheusText.parse(try d.request(.get, "/metrics").text)
        #expect((metrics.samples["hyponatrack_activation_refused_total{outcome=\"rate_limited\"}"] ?? 0) >= 2)
        #expect(metrics.samples["hyponatrack_activation_refused_total{outcome=\"wrong_code\"}"] == Double(refused))
    }

    /// The worst case for the disk: a bucket so large that all 10,000 attempts reach the
    /// activation path (wrong codes for ten enrolled patients, locked again every 6 s, and for
    /// unknown IDs), eight connections at once. Measured as `page_count × page_size` of the
    /// database, before the flood and after the daemon stopped (its last summaries written).
    @Test func tenThousandRefusedActivationsFromOneAddressGrowTheDatabaseByLessThan512KB() throws {
        let d = try Self.daemon(#", "limits": {"anonymousPerMinute": 100000}, "activation": {"lockoutMinutes": 0.1}"#)
        for i in 0..<10 { _ = try Self.enroll(d, "GROW-\(i)") }
        let legitimate = try Self.enroll(d, "LEGIT-1")
        let database = d.dataDir.appendingPathComponent("hyponatrack.sqlite").path
        let before = try Self.databaseBytes(database)
        let attempts = 10_000, workers = 8
        let outcomes = Mutex<[Int: Int]>([:])
        let legit = Mutex(0)
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for i in stride(from: worker, to: attempts, by: workers) {
                if i == attempts / 2 {
                    legit.withLock { $0 = (try? Self.activate(d, "LEGIT-1", legitimate, from: "203.0.113.5"))?.status ?? 0 }
                }
                let studyId = i % 2 == 0 ? "GROW-\(i / 2 % 10)" : "GUESS-\(i)"
                let status = (try? Self.activate(d, studyId, Self.wrongCode, from: "198.51.100.7"))?.status ?? 0
                outcomes.withLock { $0[status, default: 0] += 1 }
            }
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(legit.withLock { $0 } == 200, "a legitimate activation from another address succeeds meanwhile")
        let statuses = outcomes.withLock { $0 }
        #expect(Set(statuses.keys).isSubset(of: [401, 429]) && statuses.values.reduce(0, +) == attempts, "\(statuses)")
        d.stop()
        let after = try Self.databaseBytes(database)
        let growth = after - before
        let files = [database, database + "-wal"].compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }
        let written = try Self.sqlite(database, "SELECT action || '=' || count(*) FROM audit_log GROUP BY action;")
        print("10,000 refused activations in \(String(format: "%.1f", seconds)) s: the database grew by \(growth) bytes (\(before) → \(after); files after stop \(files)); answers \(statuses); audit rows \(written.split(separator: "\n"))")
        #expect(growth < 512 * 1024, "grew by \(growth) bytes")
        // The audit trail says what happened: summaries for the address, lockouts once each.
        try d.start()
        let trail = try d.request(.get, "/v1/audit?subject=ip:198.51.100.7&limit=1000", token: d.adminToken)
        guard case .array(let rows) = trail.json else { Issue.record("no trail: \(trail.text)"); return }
        var counted = 0
        for case .object(let row) in rows {
            #expect(row["action"] == "activation.refused_summary" && row["actor"] == "system")
            if case .object(let details)? = row["details"], case .number(let n)? = details["count"] { counted += Int(n) }
        }
        #expect(counted == attempts, "\(trail.text)")
        let lockouts = try d.request(.get, "/v1/audit?subject=GROW-0", token: d.adminToken).text
        #expect(lockouts.contains("activation.lockout") && !lockouts.contains("activation.failure"))
    }

    /// `page_count × page_size` of the database file (its WAL included: a fresh connection reads
    /// through it), by the sqlite3 shell.
    static func databaseBytes(_ path: String) throws -> Int {
        let text = try sqlite(path, "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size;")
        guard let bytes = Int(text) else { throw TestFailure("sqlite3 answered \(text)") }
        return bytes
    }

    static func sqlite(_ path: String, _ sql: String) throws -> String {
        let r = try CLIRunner.run("/usr/bin/sqlite3", [path, sql])
        guard r.status == 0 else { throw TestFailure("sqlite3: \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
