import Foundation
import Testing
import HTJSON

/// The audit key as the real daemon finds, creates and refuses it, and the one-time re-keying of
/// a database whose chain is in the old unkeyed form (docs/operations.md §4.2, §8).
@Suite struct AuditKeyTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("htak-\(UUID().uuidString)")
    var dataDir: URL { root.appendingPathComponent("data") }
    var keyFile: String { root.appendingPathComponent("audit-key").path }
    static let hex = String(repeating: "5f3c", count: 16)

    /// A configuration directory whose `hyponatrack.json` names `keyFile` as `audit.keyFile`.
    func config(keyFile: String) throws -> ConfigDirectory {
        let dir = try ConfigDirectory()
        let text = try String(contentsOf: dir.serverFile, encoding: .utf8)
        guard case .object(var o) = try JSONParser.parse(Array(text.utf8)) else { throw TestFailure("hyponatrack.json") }
        o["audit"] = ["keyFile": .string(keyFile)]
        try dir.write(JSONSerializer.string(.object(o), pretty: true), to: "hyponatrack.json")
        return dir
    }

    func startFailure(_ body: () throws -> TestDaemon) -> String {
        do { _ = try body(); return "" } catch { return "\(error)" }
    }

    @Test func withoutAConfiguredKeyOneIsCreatedBesideTheDataDirectoryWithMode0600AndAWarning() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let d = try TestDaemon(dataDir: dataDir)
        let info = try FileManager.default.attributesOfItem(atPath: keyFile)
        #expect((info[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOfFile: keyFile, encoding: .utf8)
        #expect(try text.count == 65 && AuditTrailFile.key(file: keyFile).count == 32)
        #expect(d.log.contains("level=warning msg=\"created a new audit key beside the data directory") && d.log.contains(keyFile), "\(d.log)")
        #expect(!FileManager.default.fileExists(atPath: dataDir.appendingPathComponent("audit-key").path))
        d.stop()
        try d.start()
        #expect(try String(contentsOfFile: keyFile, encoding: .utf8) == text)
        #expect(d.log.contains("the audit key is read from beside the data directory"))
        #expect(try d.request(.get, "/v1/audit/verify", token: d.adminToken)["intact"] == true)
    }

    @Test func aGroupReadableKeyFileStopsTheStartNamingTheFile() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Hooks.writeFile(keyFile, Self.hex + "\n", mode: 0o640)
        let dir = try config(keyFile: keyFile)
        let failure = startFailure { try TestDaemon(dataDir: dataDir, configFile: dir.serverFile) }
        #expect(failure.contains("audit.keyFile \(keyFile)") && failure.contains("chmod 600"), "\(failure)")
        let check = try CLIRunner.run(Repo.daemon, ["--check-config", "--config", dir.serverFile.path, "--data-dir", dataDir.path])
        #expect(check.status == 78 && check.stderr.contains("chmod 600"), "\(check.stderr)")
    }

    @Test func aKeyFileInsideTheDataDirectoryStopsTheStart() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        let inside = dataDir.appendingPathComponent("audit-key").path
        try Hooks.writeFile(inside, Self.hex + "\n")
        let failure = startFailure { try TestDaemon(dataDir: dataDir, configFile: try config(keyFile: inside).serverFile) }
        #expect(failure.contains("must not be inside the data directory"), "\(failure)")
    }

    @Test func aConfiguredKeyFileKeysTheChainAndAnotherKeyIsRefusedLater() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Hooks.writeFile(keyFile, Self.hex + "\n")
        let d = try TestDaemon(dataDir: dataDir, configFile: try config(keyFile: keyFile).serverFile)
        #expect(!d.log.contains("audit key"))
        let row = try #require(try AuditTrailFile(dataDir: dataDir).rows().first)
        let genesis = String(repeating: "0", count: 64)
        #expect(row.hash == AuditTrailFile.hash(.hmac(key: try AuditTrailFile.key(file: keyFile)), prevHash: genesis, row))
        d.stop()
        try Hooks.writeFile(keyFile, String(repeating: "77", count: 32) + "\n")
        let failure = startFailure { try d.start(); return d }
        #expect(failure.contains("is not the audit key this database's trail is keyed with"), "\(failure)")
    }

    @Test func theSystemdCredentialKeysTheChainWithoutAWarning() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let credentials = root.appendingPathComponent("credentials")
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        let credential = credentials.appendingPathComponent("audit-key").path
        try Hooks.writeFile(credential, Self.hex + "\n", mode: 0o400)
        let d = try TestDaemon(dataDir: dataDir, environment: ["CREDENTIALS_DIRECTORY": credentials.path])
        #expect(!d.log.contains("audit key") && !FileManager.default.fileExists(atPath: keyFile), "\(d.log)")
        let row = try #require(try AuditTrailFile(dataDir: dataDir).rows().first)
        #expect(row.hash == AuditTrailFile.hash(.hmac(key: try AuditTrailFile.key(file: credential)),
                                                prevHash: String(repeating: "0", count: 64), row))
    }

    /// Turns the database back into release 4's form: the chain re-hashed with plain SHA-256,
    /// every migration after `v4_alert_log` undone and its record gone (a database that records
    /// later migrations without v5's is refused as a gap, see below). A migration added after
    /// `v22_oidc` needs undoing in `AuditTrailFile.undoSites`.
    func downgradeToReleaseFour(_ trail: AuditTrailFile) throws {
        try trail.rehash(.sha256)
        try trail.tamper(AuditTrailFile.undoSites)
        let revisionTriggers = ["days", "symptom_entries", "reaction_tests", "tapping_tests", "desmopressin_doses", "lab_values"]
            .flatMap { table in ["insert", "update", "delete"].map { "DROP TRIGGER \(table)_\($0)_revision;" } }
        try trail.tamper("""
            DELETE FROM schema_migrations WHERE rowid > (SELECT rowid FROM schema_migrations WHERE name = 'v4_alert_log');
            DROP TABLE audit_key; DROP TABLE scheduler_daily_marks;
            DROP TRIGGER patients_revision_insert; DROP TRIGGER patients_revision; \(revisionTriggers.joined(separator: " "))
            DROP TABLE patient_revisions;
            ALTER TABLE sync_outbox DROP COLUMN in_flight_at; ALTER TABLE sync_outbox DROP COLUMN uncertain_since;
            DROP TABLE console_sessions; DROP TABLE staff_passwords;
            DROP TABLE import_proposals;
            DROP TABLE sync_requests;
            ALTER TABLE sync_state DROP COLUMN unhealthy_reported;
            ALTER TABLE days DROP COLUMN submitted_at;
            DROP TABLE contacts; ALTER TABLE alerts DROP COLUMN first_acknowledge_note;
            DROP TABLE alert_days; DROP INDEX alerts_live;
            ALTER TABLE alerts DROP COLUMN last_date; ALTER TABLE alerts DROP COLUMN merged_into; ALTER TABLE alerts DROP COLUMN new_data_at;
            CREATE UNIQUE INDEX alerts_live ON alerts (patient_id, date, kind) WHERE state != 'resolved';
            DROP TABLE push_deliveries; DROP TABLE push_devices;
            """)
        let left = try trail.sqlite([trail.path, "SELECT name FROM schema_migrations ORDER BY rowid"])
        guard left.split(separator: "\n").last == "v4_alert_log" else { throw TestFailure("not release 4: \(left)") }
    }

    @Test func aReleaseFourChainIsRekeyedAtTheFirstStartAndTheRekeyingIsAudited() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let d = try TestDaemon(dataDir: dataDir)
        let token = try Study.enrollAndActivate(d, "UP-1")
        try d.request(.put, "/v1/me/days/\(Study.date(0))", token: token, body: ["weightMorningKg": 79.9])
        d.stop()
        let trail = AuditTrailFile(dataDir: dataDir)
        try downgradeToReleaseFour(trail)
        let old = try trail.rows()
        let oldHead = try #require(old.last)
        try d.start()
        #expect(d.log.contains("level=warning msg=\"audit chain verified under the legacy unkeyed scheme and re-keyed once under the audit key\"")
                && d.log.contains("old_head=\(oldHead.seq):\(oldHead.hash) rows=\(old.count)"), "\(d.log)")
        let verify = try d.request(.get, "/v1/audit/verify", token: d.adminToken)
        #expect(verify["intact"] == true && (Hooks.int(verify["rowsChecked"]) ?? 0) > old.count, "\(verify.text)")
        // The re-keying ran before anything else could append: it is the row right after the old head.
        let rows = try d.request(.get, "/v1/audit?after=\(oldHead.seq)", token: d.adminToken)
        guard case .array(let after) = rows.json, let rekey = after.first.flatMap(Hooks.object) else { Issue.record("\(rows.text)"); return }
        #expect(Hooks.string(rekey["action"]) == "audit.rekey" && Hooks.string(rekey["actor"]) == "system")
        #expect(rekey["details"] == ["rows": .int(old.count), "oldHead": .string("\(oldHead.seq):\(oldHead.hash)")])
        // Same content, new hashes; and the daemon's database stays keyed across restarts.
        let now = try trail.rows()
        #expect(now.prefix(old.count).map(\.details) == old.map(\.details) && now.first?.hash != old.first?.hash)
        d.stop()
        try d.start()
        #expect(try CLIRunner.run(["audit", "verify"], server: d.baseURL, token: d.adminToken).status == 0)
        #expect(try trail.rows().filter { $0.action == "audit.rekey" }.count == 1)
        // The log runs on across restarts: the line is there once, from the first start only.
        #expect(d.log.components(separatedBy: "re-keyed once").count == 2, "\(d.log)")
    }

    @Test func aBrokenReleaseFourChainIsNotRekeyedAndTheDaemonRefusesToStart() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let d = try TestDaemon(dataDir: dataDir)
        _ = try Study.enrollAndActivate(d, "UP-2")
        d.stop()
        let trail = AuditTrailFile(dataDir: dataDir)
        try downgradeToReleaseFour(trail)
        try trail.tamper("UPDATE audit_log SET actor = 'staff:mallory' WHERE seq = 2;")
        let before = try trail.rows().map(\.hash)
        let failure = startFailure { try d.start(); return d }
        #expect(failure.contains("does not verify under the previous (unkeyed) scheme") && failure.contains("row 2"), "\(failure)")
        #expect(try trail.rows().map(\.hash) == before)
        let applied = try trail.sqlite([trail.path, "SELECT name FROM schema_migrations WHERE name LIKE 'v5_%'"])
        #expect(applied.isEmpty)
    }

    /// The reviewer's downgrade (someone with the database file but not the key): rows edited
    /// and deleted, the chain re-hashed with plain SHA-256, the key record and v5's migration
    /// record deleted, the later migrations left recorded. The daemon and `--check-config`
    /// refuse it naming v5_audit_hmac, and nothing is re-keyed.
    @Test func aKeyedChainForgedBackIntoTheUnkeyedFormIsRefusedAtStartAndNotRekeyed() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let d = try TestDaemon(dataDir: dataDir)
        _ = try Study.enrollAndActivate(d, "UP-3")
        d.stop()
        let trail = AuditTrailFile(dataDir: dataDir)
        let last = try #require(try trail.rows().last)
        try trail.tamper("UPDATE audit_log SET actor = 'staff:mallory' WHERE seq = 2; DELETE FROM audit_log WHERE seq = \(last.seq);")
        try trail.rehash(.sha256)
        try trail.tamper("DROP TABLE audit_key; DELETE FROM schema_migrations WHERE name = 'v5_audit_hmac';")
        let before = try trail.rows().map(\.hash)

        let failure = startFailure { try d.start(); return d }
        #expect(failure.contains("status 1") && failure.contains("cannot start")
                && failure.contains("does not record migration v5_audit_hmac although it records a later one"), "\(failure)")
        #expect(!failure.contains("re-keyed once"))
        #expect(try trail.rows().map(\.hash) == before)
        #expect(try trail.rows().allSatisfy { $0.action != "audit.rekey" })
        #expect(try trail.sqlite([trail.path, "SELECT name FROM sqlite_schema WHERE name = 'audit_key'"]).isEmpty)
        #expect(try trail.sqlite([trail.path, "SELECT name FROM schema_migrations WHERE name = 'v5_audit_hmac'"]).isEmpty)

        let check = try CLIRunner.run(Repo.daemon, ["--check-config", "--data-dir", dataDir.path])
        #expect(check.status == 78 && check.stderr.contains("does not record migration v5_audit_hmac"), "\(check.stderr)")
    }
}
