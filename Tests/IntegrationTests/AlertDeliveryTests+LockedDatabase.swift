import Foundation
import Testing
import HTJSON

/// A page whose outcome the daemon cannot write: another process holds the database's write
/// lock (`BEGIN IMMEDIATE` in the sqlite3 shell) past the daemon's busy timeout while the pager
/// runs. A pager cannot de-duplicate, so it must run once, not once a second.
extension AlertDeliveryTests {
    /// The sqlite3 shell holding `BEGIN IMMEDIATE` on a database until `release()`.
    final class WriteLock {
        private let process = Process()
        private let input = Pipe()
        private let output = LogLines()

        init(_ database: URL) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [database.path]
            process.standardInput = input
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            try output.follow(out)
            input.fileHandleForWriting.write(Data("PRAGMA busy_timeout = 20000;\nBEGIN IMMEDIATE;\nSELECT 'locked';\n".utf8))
            guard poll(timeout: 20, { output.lines.withLock { $0.contains("locked") } }) else {
                throw TestFailure("sqlite3 did not take the write lock")
            }
        }

        func release() {
            input.fileHandleForWriting.write(Data("COMMIT;\n.quit\n".utf8))
            try? input.fileHandleForWriting.close()
            ChildExit.wait(process)
        }

        deinit { if !ChildExit.hasExited(process) { kill(process.processIdentifier, SIGKILL); ChildExit.wait(process) } }
    }

    @Test func aPageWhoseOutcomeCannotBeRecordedIsNotSentAgainWhileTheDatabaseIsLocked() throws {
        var config = try HookConfig()
        let pages = config.directory.appendingPathComponent("pages.log")
        let gate = config.directory.appendingPathComponent("go")
        let pager = config.directory.appendingPathComponent("page")
        // Holds the page open until the test has locked the database, so the outcome is written
        // while the lock is held.
        try Hooks.writeFile(pager.path, """
            #!/bin/sh
            cat > /dev/null
            echo "$HYPONATRACK_EVENT_TYPE $HYPONATRACK_EVENT_ID" >> \(pages.path)
            while [ ! -e \(gate.path) ]; do sleep 0.05; done
            exit 0

            """, mode: 0o755)
        config.command("pager", path: pager.path)
        config.red = [(0, ["pager"])]
        let rig = try HookRig(config)
        let paged = { ((try? String(contentsOf: pages, encoding: .utf8)) ?? "").split(separator: "\n").count }
        try rig.patient("HOOK-Lock-1")
        try rig.lab("HOOK-Lock-1", 128)
        try rig.waitUntil(timeout: 15, "the pager runs") { paged() == 1 }

        let lock = try WriteLock(rig.daemon.dataDir.appendingPathComponent("hyponatrack.sqlite"))
        try Hooks.writeFile(gate.path, "")
        // The daemon's write waits out its 5 s busy timeout and fails; before the fix the worker
        // sent the page again a second later, and every 6 s from then on.
        try rig.holds(for: 10, "the pager ran once while the outcome could not be recorded") { paged() == 1 }
        // Under load the failed write (after its 5 s busy timeout) may still be on its way: wait for
        // its log line, still holding the lock, and the page must still have gone out only once.
        try rig.waitUntil(timeout: 30, "the failed outcome is logged") {
            rig.daemon.log.contains("hook delivery outcome could not be recorded")
        }
        #expect(paged() == 1, "paged \(paged()) times while locked")
        lock.release()
        try rig.waitUntil(timeout: 90, "the outcome is recorded once the lock is gone") {
            Hooks.int(try rig.hooksStatus()["pager"]?["delivered"]) == 1
        }
        #expect(paged() == 1, "paged \(paged()) times")
        let line = try #require(rig.daemon.log.split(separator: "\n").first { $0.contains("outcome could not be recorded") })
        #expect(line.contains("hook=pager") && line.contains("outcome=delivered") && line.contains("event_id=evt_"), "\(line)")
        #expect(rig.leakedSecrets(in: rig.daemon.log).isEmpty)
    }
}
