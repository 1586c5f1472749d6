import Foundation
import Testing
import HTJSON

/// The real daemon under a fake systemd: a notification socket the test binds (`NOTIFY_SOCKET`),
/// a watchdog (`WATCHDOG_USEC`), the journal's stream (`JOURNAL_STREAM`).
@Suite struct SystemdIntegrationTests {
    /// A daemon started with `NOTIFY_SOCKET` pointing at `socket`, plus `environment`.
    static func daemon(_ socket: NotifySocket, _ environment: [String: String] = [:]) throws -> TestDaemon {
        try TestDaemon(environment: environment.merging(["NOTIFY_SOCKET": socket.path]) { $1 })
    }

    static func statuses(_ socket: NotifySocket) -> [String] {
        socket.messages.flatMap { $0.split(separator: "\n") }.filter { $0.hasPrefix("STATUS=") }.map { String($0.dropFirst(7)) }
    }

    @Test func readyCarriesAStatusLineAndWatchdogPingsKeepArriving() throws {
        let socket = try NotifySocket()
        defer { socket.close() }
        let d = try Self.daemon(socket, ["WATCHDOG_USEC": "200000"])  // pings every 0.1 s
        try waitUntil { socket.count("WATCHDOG=1") >= 5 }
        let ready = socket.messages.first { $0.hasPrefix("READY=1") }
        #expect(ready == "READY=1\nSTATUS=serving on 127.0.0.1:\(d.port), 0 patients, sync off", "\(socket.messages)")
        #expect(socket.messages.first?.hasPrefix("READY=1") == true, "no ping before READY=1: \(socket.messages)")
        #expect(d.log.contains("systemd watchdog on"))
        // The status follows the study: an enrolment shows within a ping.
        _ = try Study.enrollAndActivate(d, "SD-1")
        try waitUntil { Self.statuses(socket).last == "serving on 127.0.0.1:\(d.port), 1 patient, sync off" }
        d.stop()
        #expect(socket.messages.last == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func sighupIsAnnouncedAsAReloadAndEndsInReadyEvenWhenTheRulesAreRefused() throws {
        let dir = try ConfigDirectory()
        let socket = try NotifySocket()
        defer { socket.close() }
        let d = try TestDaemon(configFile: dir.serverFile, environment: ["NOTIFY_SOCKET": socket.path])
        try waitUntil { socket.messages.contains { $0.hasPrefix("READY=1\nSTATUS=") } }
        let readyBefore = socket.messages.count
        d.signal(SIGHUP)
        try waitUntil { socket.count("READY=1") == 1 }
        let reload = Array(socket.messages[readyBefore...])
        #expect(reload.count == 2 && reload.last == "READY=1", "\(reload)")
        let lines = reload.first?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.first == "RELOADING=1")
        #expect(lines.count == 2 && lines[1].hasPrefix("MONOTONIC_USEC=") && UInt64(lines[1].dropFirst(15)) != nil, "\(lines)")
        // Invalid rules: refused, and systemd still hears that the reload is over.
        try dir.write("{", to: "thresholds.json")
        d.signal(SIGHUP)
        try waitUntil { socket.count("READY=1") == 2 }
        // The daemon logs before it notifies, but the test reads its log from a pipe on a thread
        // of its own, which may not have the line yet under a full parallel run.
        try waitUntil { d.log.contains("rules reload refused") }
        #expect(socket.count("WATCHDOG=1") == 0, "no WATCHDOG_USEC, no pings")
    }

    @Test func aWatchdogMeantForAnotherProcessIsNotFed() throws {
        let socket = try NotifySocket()
        defer { socket.close() }
        let d = try Self.daemon(socket, ["WATCHDOG_USEC": "100000", "WATCHDOG_PID": "1"])
        try waitUntil { socket.messages.contains { $0.hasPrefix("READY=1") } }
        // Had the daemon taken the watchdog, ten pings (one per 0.05 s) would arrive meanwhile.
        #expect(!poll(timeout: 0.5) { socket.count("WATCHDOG=1") > 0 }, "\(socket.messages)")
        d.stop()
        #expect(socket.messages.last == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func theStatusLineSaysWhenTheSyncHaltsAndResumes() throws {
        let socket = try NotifySocket()
        defer { socket.close() }
        let rig = try SyncRig(environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "200000"])
        let serving = "serving on 127.0.0.1:\(rig.daemon.port)"
        // The notification socket is read on its own thread: the first status may still be on its way.
        try waitUntil { !Self.statuses(socket).isEmpty }
        #expect(Self.statuses(socket).first == "\(serving), 0 patients, sync ok")
        try rig.emulator.control(["revokeToken": true])
        _ = try Study.enrollAndActivate(rig.daemon, "SD-SYNC-1")
        try waitUntil { Self.statuses(socket).last == "\(serving), 1 patient, sync halted" }
        try rig.emulator.control(["revokeToken": false])
        #expect(try rig.cli(["resume"]).status == 0)
        try waitUntil { Self.statuses(socket).last == "\(serving), 1 patient, sync ok" }
        let metrics = try rig.daemon.request(.get, "/metrics").text
        #expect(metrics.contains("hyponatrack_sync_failures_total{kind=\"halt\"} 1\n"), "\(metrics)")
    }

    @Test func journalFormatOnlyWhenJournalStreamNamesStderr() throws {
        let journal = try TestDaemon(stderrIsJournal: true)
        try waitUntil { journal.log.split(separator: "\n").contains { $0.hasPrefix("<5>level=notice msg=ready ") } }
        #expect(!journal.log.contains("ts="), "\(journal.log)")
        // Inherited by a process whose stderr is elsewhere (another file here): plain logfmt.
        let elsewhere = try TestDaemon(environment: ["JOURNAL_STREAM": "1:1"])
        try waitUntil { elsewhere.log.split(separator: "\n").contains { $0.hasPrefix("ts=") && $0.contains("msg=ready") } }
        #expect(!elsewhere.log.contains("<5>"), "\(elsewhere.log)")
    }
}
