import Foundation
import Testing
import HTJSON

/// A hook worker whose database reads fail (here the sqlite3 shell renames its table away: the
/// read fails at once, as on an I/O error or a damaged file; a write lock would not do, since
/// under WAL readers are never blocked). It must pause longer and longer and say how often it
/// failed, not log the same error every second.
extension AlertDeliveryTests {
    /// Runs SQL in the sqlite3 shell on `database` (waiting out the daemon's own locks).
    static func sqlite(_ database: URL, _ sql: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [database.path, "PRAGMA busy_timeout = 20000;", sql]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        guard ChildExit.wait(p) == 0 else { throw TestFailure("sqlite3 failed: \(sql)") }
    }

    @Test func aHookWorkerWhoseReadsFailPausesLongerEachTimeAndCountsTheFailures() throws {
        var config = try HookConfig()
        let r = try WebhookReceiver(secret: config.secret)
        config.webhook("ward", url: r.url("/ward"))
        config.red = [(0, ["ward"])]
        let rig = try HookRig(config, receivers: ["receiver": r])
        let database = rig.daemon.dataDir.appendingPathComponent("hyponatrack.sqlite")
        try Self.sqlite(database, "ALTER TABLE hook_outbox RENAME TO hook_outbox_away;")
        let errors = { rig.daemon.log.split(separator: "\n").filter { $0.contains("hook delivery: database error") } }
        try rig.waitUntil(timeout: 20, "three failed reads are logged") { errors().count >= 3 }
        let lines = errors()
        for (n, pause) in [(1, 1), (2, 2), (3, 4)] {
            let line = lines[n - 1]
            #expect(line.contains("hook=ward") && line.contains("failures=\(n)") && line.contains("retry_in_s=\(pause)"), "\(line)")
        }

        try Self.sqlite(database, "ALTER TABLE hook_outbox_away RENAME TO hook_outbox;")
        // A new alert wakes the worker out of its pause.
        let id = "HOOK-Reads-1"
        try rig.patient(id)
        try rig.lab(id, 128)
        try rig.waitUntil(timeout: 20, "the alert is delivered") { try !r.deliveries("/ward", type: "alert.opened").isEmpty }
        let recovered = try #require(rig.daemon.log.split(separator: "\n").first { $0.contains("hook delivery: the database works again") })
        #expect(recovered.contains("hook=ward") && recovered.contains("failures="), "\(recovered)")
    }
}
