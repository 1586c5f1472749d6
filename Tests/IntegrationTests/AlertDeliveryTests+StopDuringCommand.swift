import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import HTJSON

/// A command hook still running when the daemon is stopped: its `timeoutSeconds` may be up to
/// 300 s, far beyond a hook worker's 35 s stop deadline.
extension AlertDeliveryTests {
    @Test func aCommandRunningAtTheStopIsEndedAndItsPageSentAfterTheRestart() throws {
        var config = try HookConfig()
        let work = config.directory.appendingPathComponent("pager-work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let fifo = work.appendingPathComponent("fifo")
        guard mkfifo(fifo.path, 0o600) == 0 else { throw TestFailure("mkfifo \(fifo.path)") }
        defer {
            // Should the command outlive the daemon, its read ends here (a writer that opens and
            // closes gives it EOF); opening fails at once if nothing reads.
            let fd = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        // The first run writes its pid and then waits on a fifo nobody writes to (as a pager
        // gateway that hangs); every later run pages at once.
        let pager = config.directory.appendingPathComponent("hanging-pager")
        try Hooks.writeFile(pager.path, """
            #!/bin/sh
            set -eu
            cat > /dev/null
            if mkdir "$1/first" 2>/dev/null; then
                echo $$ > "$1/first/pid.tmp"
                mv "$1/first/pid.tmp" "$1/first/pid"
                exec cat "$1/fifo" > /dev/null
            fi
            echo "$HYPONATRACK_EVENT_ID" >> "$1/paged"

            """, mode: 0o755)
        config.command("pager", path: pager.path, args: [work.path], timeoutSeconds: 300)
        config.red = [(0, ["pager"])]
        let rig = try HookRig(config)
        let id = "HOOK-StopCmd-1"
        try rig.patient(id)
        try rig.lab(id, 128)
        let pidFile = work.appendingPathComponent("first/pid")
        try rig.waitUntil(timeout: 15, "the pager hangs") { FileManager.default.fileExists(atPath: pidFile.path) }
        let pid = try #require(Int32(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))

        let started = Date()
        rig.daemon.stop()
        let took = Date().timeIntervalSince(started)
        #expect(rig.daemon.exitStatus == 0)
        #expect(took < 35, "the stop waited \(took) s for the command (a hook worker's deadline is 35 s)")
        #expect(!rig.daemon.log.contains("did not stop within its deadline"), "\(rig.daemon.log)")
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the command is not left running (or unreaped) behind the daemon")
        #expect(rig.daemon.log.contains("hook delivery interrupted by the stop"))

        try rig.daemon.start()
        let paged = work.appendingPathComponent("paged")
        try rig.waitUntil(timeout: 20, "the page goes out after the restart") {
            Hooks.int(try rig.hooksStatus()["pager"]?["delivered"]) == 1
        }
        let pages = try String(contentsOf: paged, encoding: .utf8).split(separator: "\n")
        #expect(pages.count == 1, "paged once after the restart: \(pages)")
        #expect(Hooks.int(try rig.hooksStatus()["pager"]?["pending"]) == 0)
    }
}
