import Foundation
import Testing
import HTJSON

/// The REDCap sync end to end, continued: halts, bans, restarts and crashes, the rate cap, sync
/// check, refusing to start, TLS and longitudinal projects (each test its own daemon and emulator).
extension REDCapSyncTests {
    // MARK: 5. revoked token → halt → resume

    @Test func aRevokedTokenHaltsTheSyncUntilResumed() throws {
        let rig = try SyncRig()
        let emu = rig.emulator
        try emu.control(["revokeToken": true])
        let token = try Study.enrollAndActivate(rig.daemon, "SYNC-REV-1")
        try rig.waitUntil("the sync halts") { try rig.status()["halted"] == true }
        let status = try rig.status()
        #expect(Self.string(status["haltReason"])?.contains("403") == true, "\(status)")
        #expect(Self.string(status["haltReason"])?.contains("permissions") == true)
        let requests = try emu.counter("apiRequests")
        // More data while halted: queued, never sent.
        try Self.putDay(rig, token, Study.date(-1), ["weightMorningKg": 79.9])
        try Self.enroll(rig, "SYNC-REV-2")
        try Self.holds(for: 2.5, "no request while halted") { try emu.counter("apiRequests") == requests }
        #expect((Self.int(try rig.status()["pending"]) ?? 0) >= 3)
        let health = try rig.daemon.request(.get, "/healthz")
        if case .object(let sync)? = health["sync"] { #expect(sync["halted"] == true) }
        let cliStatus = try rig.cli(["status"])
        #expect(cliStatus.status == 1 && cliStatus.stdout.contains("HALTED"), "\(cliStatus.stdout)")
        // Fixed in REDCap, resumed by an admin.
        try emu.control(["revokeToken": false])
        let resume = try rig.cli(["resume"])
        #expect(resume.status == 0, "\(resume.stderr)")
        try rig.waitUntilDrained()
        let records = try emu.records()
        #expect(records.keys.sorted() == ["SYNC-REV-1", "SYNC-REV-2"])
        #expect(records["SYNC-REV-1"]?.instances[5]?["weight_morning_kg"] == "79.9")
        #expect(try rig.reconcile()["inSync"] == true)
        #expect(try rig.cli(["status"]).status == 0)
    }

    // MARK: 6. IP ban

    @Test func aBanHaltsTheSyncAndNothingMoreIsSent() throws {
        let rig = try SyncRig()
        let emu = rig.emulator
        try emu.control(["rateLimit": 3])
        var n = 0
        while try rig.status()["halted"] == false {
            n += 1
            guard n <= 8 else { Issue.record("no ban after \(n) requests"); return }
            try Self.enroll(rig, "SYNC-BAN-\(n)")
            try rig.waitUntil("the row is sent or the sync halts") {
                let s = try rig.status()
                return s["pending"] == 0 || s["halted"] == true
            }
        }
        let status = try rig.status()
        #expect(Self.string(status["haltReason"])?.contains("429") == true, "\(status)")
        #expect(Self.string(status["haltReason"])?.contains("banned") == true)
        #expect(try emu.counter("bans") == 1 && emu.counter("bannedRequests") == 1, "exactly one request hit the ban")
        let requests = try emu.counter("apiRequests")
        try Self.enroll(rig, "SYNC-BAN-LATE-1")
        try Self.enroll(rig, "SYNC-BAN-LATE-2")
        try Self.holds(for: 2.5, "no request while banned") { try emu.counter("apiRequests") == requests }
        #expect(try emu.counter("bannedRequests") == 1)
        // A REDCap admin lifts the ban; an admin here resumes.
        try emu.control(["resetBan": true, "rateLimit": 0])
        try rig.post("/v1/sync/resume")
        try rig.waitUntilDrained()
        #expect(try emu.records().count == n + 2)
    }

    // MARK: 7. restarts and crashes

    @Test func aPendingAndAnInFlightQueueSurviveRestarts() throws {
        let rig = try SyncRig()
        let emu = rig.emulator
        try emu.control(["mode": "drop"])
        let token = try Study.enrollAndActivate(rig.daemon, "SYNC-RST-1")
        try Self.putDay(rig, token, Study.date(-1), ["weightMorningKg": 80.6])
        try Self.enroll(rig, "SYNC-RST-2")
        try rig.waitUntil("a dropped connection was seen") { (Self.int(try rig.status()["consecutiveFailures"]) ?? 0) >= 1 }
        let pending = Self.int(try rig.status()["pending"]) ?? 0
        #expect(pending >= 3)
        rig.daemon.stop()
        try rig.daemon.start()
        #expect(Self.int(try rig.status()["pending"]) == pending, "the queue survived the restart")
        // In flight at a graceful stop: the slow request is answered, then the daemon exits.
        try emu.control(["mode": "slow", "slowSeconds": 1.5])
        try rig.post("/v1/sync/retry")
        try rig.waitUntil("a request is in flight") { try emu.modeCount("slow") >= 1 }
        rig.daemon.stop()
        try emu.control(["mode": "normal"])
        try rig.daemon.start()
        try Self.putDay(rig, token, Study.date(-1), ["weightMorningKg": 80.8])
        try rig.waitUntilDrained(timeout: 30)
        let records = try emu.records()
        #expect(records.keys.sorted() == ["SYNC-RST-1", "SYNC-RST-2"])
        #expect(records["SYNC-RST-1"]?.instances.keys.sorted() == [5])
        #expect(records["SYNC-RST-1"]?.instances[5]?["weight_morning_kg"] == "80.8")
        #expect(try rig.reconcile()["inSync"] == true)
    }

    @Test func killNineDuringTheDrainLosesAndDuplicatesNothing() throws {
        var options = SyncConfig.Options()
        options.batchSize = 5
        let rig = try SyncRig(options)
        let emu = rig.emulator
        try emu.control(["mode": "slow", "slowSeconds": 0.5])
        var tokens: [String: String] = [:]
        for n in 1...6 {
            let id = "SYNC-KILL-\(n)"
            tokens[id] = try Study.enrollAndActivate(rig.daemon, id)
            for pod in 1...5 {
                try Self.putDay(rig, tokens[id]!, Study.date(pod - 6), ["weightMorningKg": .number(Double(800 + n + pod) / 10),
                                                                        "fluidIntakeMl": .int(1000 + pod * 10)])
            }
        }
        try rig.waitUntil("part of the queue is sent") {
            try emu.counter("rowsImported") >= 5 && (Self.int(try rig.status()["pending"]) ?? 0) >= 5
        }
        rig.daemon.kill9()
        try rig.daemon.start()
        // Final values after the crash.
        try Self.putDay(rig, tokens["SYNC-KILL-1"]!, Study.date(-1), ["weightMorningKg": 91.5, "fluidIntakeMl": nil])
        let patch = try rig.daemon.request(.patch, "/v1/patients/SYNC-KILL-2", token: rig.admin, body: ["bmi": 31.0])
        #expect(patch.status == 200)
        try emu.control(["mode": "normal"])
        try rig.waitUntilDrained(timeout: 30)
        let records = try emu.records()
        #expect(records.keys.sorted() == (1...6).map { "SYNC-KILL-\($0)" })
        for (id, r) in records { #expect(r.instances.keys.sorted() == [1, 2, 3, 4, 5], "\(id): \(r.instances.keys.sorted())") }
        #expect(records["SYNC-KILL-1"]?.instances[5]?["weight_morning_kg"] == "91.5")
        #expect(records["SYNC-KILL-1"]?.instances[5]?["fluid_intake_ml"] == nil)
        #expect(records["SYNC-KILL-2"]?.baseline["bmi"] == "31.0")
        let reconcile = try rig.reconcile()
        #expect(reconcile["inSync"] == true, "\(JSONSerializer.string(.object(reconcile)))")
        let alerts = try rig.alerts().count                       // their alert_log rows, if the days raised any
        #expect(reconcile["localRows"] == .int(36 + alerts) && reconcile["remoteRows"] == .int(36 + alerts))
        #expect(reconcile["onlyInREDCap"] == 0)
        #expect(try emu.counter("newInstances") == 0 && emu.counter("autoNumbered") == 0)
    }

    @Test func aRequestTheDaemonDiedWaitingForCannotLeaveOlderValuesInREDCap() throws {
        // REDCap applies a request it was still working on when the daemon was killed — after the
        // restarted daemon sent the newer version of the same row. The row is sent once more
        // after `settleSeconds`, so REDCap ends with the newest values.
        var options = SyncConfig.Options()
        options.settleSeconds = 12
        let rig = try SyncRig(options)
        let emu = rig.emulator
        let id = "SYNC-LATE-1"
        let token = try Study.enrollAndActivate(rig.daemon, id)
        try rig.waitUntilDrained()
        let day = Study.date(-1)                                   // POD 5
        let weight = { try emu.records()[id]?.instances[5]?["weight_morning_kg"] }
        try emu.control(["mode": "slow", "slowSeconds": 6, "count": 1])
        try Self.putDay(rig, token, day, ["weightMorningKg": 80.1])
        try rig.waitUntil("the first version is in flight") { try emu.modeCount("slow") >= 1 }
        try Self.putDay(rig, token, day, ["weightMorningKg": 80.9])    // queued while it is in flight
        rig.daemon.kill9()
        try rig.daemon.start()
        try rig.waitUntil(timeout: 5.5, "the restarted daemon sent the newer version") { try weight() == "80.9" }
        try rig.waitUntil(timeout: 12, "the request the daemon died waiting for landed late") { try weight() == "80.1" }
        try rig.waitUntilDrained(timeout: 30)
        #expect(try weight() == "80.9")
        #expect(try rig.reconcile()["inSync"] == true)
    }

    // MARK: 8. the rate cap

    @Test func theRateCapIsNeverExceeded() throws {
        let rig = try Self.cappedRig(cap: 30, backlog: 40, prefix: "SYNC-CAP")
        let emu = rig.emulator
        try rig.waitUntil("30 requests went out") { try emu.counter("apiRequests") >= 30 }
        try Self.holds(for: 3, "no 31st request within the minute") { try emu.counter("apiRequests") == 30 }
        #expect(try emu.counter("maxApiRequestsPerMinute") == 30)
        let s = try rig.status()
        #expect(s["halted"] == false && s["pending"] == 10, "the rest waits for the window: \(s)")
        #expect(s["requestsLastMinute"] == 30 && s["maxRequestsPerMinute"] == 30)
        // A graceful stop does not wait for the rate window to open.
        let t0 = Date()
        rig.daemon.stop()
        #expect(Date().timeIntervalSince(t0) < 10, "stopping took \(Date().timeIntervalSince(t0)) s")
        #expect(rig.daemon.exitStatus == 0)
    }

    // MARK: 9. sync check

    @Test func syncCheckComparesTheProjectWithTheInstruments() throws {
        let rig = try SyncRig()
        let ok = try rig.daemon.request(.get, "/v1/sync/check", token: rig.admin)
        #expect(ok.status == 200 && ok["ok"] == true && ok["problems"] == [], "\(ok.text)")
        #expect(ok["redcapVersion"] == "15.7.6" && ok["projectId"] == 42)
        let cliOK = try rig.cli(["check"])
        #expect(cliOK.status == 0 && cliOK.stdout.contains("matches"), "\(cliOK.stdout)\(cliOK.stderr)")

        try rig.emulator.control(["repeating": false])
        let bad = try rig.daemon.request(.get, "/v1/sync/check", token: rig.admin)
        #expect(bad["ok"] == false && bad.text.contains("mark daily_monitoring repeating"), "\(bad.text)")
        let cliBad = try rig.cli(["check"])
        #expect(cliBad.status == 1 && cliBad.stdout.contains("repeating"), "\(cliBad.stdout)")

        // A refused token is a failure with REDCap's reason, not a report.
        try rig.emulator.control(["repeating": true, "revokeToken": true])
        let refused = try rig.daemon.request(.get, "/v1/sync/check", token: rig.admin)
        #expect(refused.status == 502 && refused.text.contains("permissions"), "\(refused.text)")
        #expect(try rig.cli(["check"]).status != 0)
    }

    // MARK: 10. refusing to start

    @Test func theDaemonRefusesAnInsecureURLAWorldReadableTokenAndAMalformedOne() throws {
        let emu = try REDCapEmulator()
        var http = SyncConfig.Options()
        http.url = "http://127.0.0.1:\(emu.port)/api/"
        var readable = SyncConfig.Options()
        readable.tokenMode = 0o644
        var malformed = SyncConfig.Options()
        malformed.tokenText = emu.token.lowercased() + "\n"
        var short = SyncConfig.Options()
        short.tokenText = String(emu.token.dropLast())
        for (options, fragment) in [(http, "must be an https:// URL"), (readable, "readable by its owner only"),
                                    (malformed, "32 upper-case hexadecimal"), (short, "32 upper-case hexadecimal")] {
            let config = try SyncConfig(emu, options)
            #expect(throws: TestFailure.self) { try TestDaemon(configFile: config.file) }
            let (status, log) = try config.refusedStart()
            #expect(status != 0)
            #expect(log.contains(fragment), "expected “\(fragment)” in: \(log)")
            #expect(!log.contains(emu.token) && !log.contains(emu.token.lowercased()), "the token must never be logged")
        }
        #expect(try emu.counter("apiRequests") == 0)
    }

    // MARK: TLS

    @Test func aTLSConnectFailureIsTransientButAFailedVerificationHalts() throws {
        let emu = try REDCapEmulator()
        // A front end that resets connections during the handshake: back off, do not halt.
        let listener = try ResettingListener()
        let resetting = try SyncRig(emulator: emu, {
            var o = SyncConfig.Options()
            o.url = "https://127.0.0.1:\(listener.port)/api/"
            return o
        }())
        try Self.enroll(resetting, "SYNC-TLS-1")
        try resetting.waitUntil("a failed connection") {
            let s = try resetting.status()
            return (Self.int(s["consecutiveFailures"]) ?? 0) >= 1 || s["halted"] == true
        }
        let s = try resetting.status()
        #expect(s["halted"] == false, "a reset during the TLS handshake is transient: \(s)")
        #expect(Self.string(s["lastFailure"])?.contains("TLS connect") == true, "\(s)")
        #expect(s["pending"] == 1)
        listener.stop()

        // A server whose certificate our CA did not sign: halt.
        let other = try REDCapEmulator()
        let wrongCA = try SyncRig(emulator: emu, {
            var o = SyncConfig.Options()
            o.caFile = other.caFile
            return o
        }())
        try Self.enroll(wrongCA, "SYNC-TLS-2")
        try wrongCA.waitUntil("the sync halts") { try wrongCA.status()["halted"] == true }
        #expect(Self.string(try wrongCA.status()["haltReason"])?.contains("TLS verification") == true)
        #expect(try emu.records().isEmpty)
        #expect(try emu.counter("tlsHandshakeFailures") >= 1)
    }

    // MARK: longitudinal projects

    @Test func aLongitudinalProjectGetsItsEventNames() throws {
        let emu = try REDCapEmulator(extraArguments: ["--longitudinal",
                                                      "baseline_arm_1=patient_baseline,daily_arm_1=daily_monitoring+alert_log+outcome_log"])
        var options = SyncConfig.Options()
        options.events = ("baseline_arm_1", "daily_arm_1")
        let rig = try SyncRig(emulator: emu, options)
        let token = try Study.enrollAndActivate(rig.daemon, "SYNC-LONG-1")
        try Self.putDay(rig, token, Study.date(-1), ["weightMorningKg": 80.4])
        try Self.putDay(rig, token, Study.date(-2), ["weightMorningKg": 80.2, "emergencySymptoms": ["collapse"]])   // red: an alert
        try rig.waitUntilDrained()
        let r = try #require(try emu.records()["SYNC-LONG-1"])
        #expect(r.baseline["age"] == "50" && r.instances[5]?["weight_morning_kg"] == "80.4")
        #expect(r.alertLog[1]?["alert_pod"] == "4", "the alert_log row went to the daily event: \(r.alertLog)")
        let requests = try emu.requests().filter { $0["outcome"] == "rejected" }
        #expect(requests.isEmpty)
        let check = try rig.daemon.request(.get, "/v1/sync/check", token: rig.admin)
        #expect(check["ok"] == true, "\(check.text)")
        #expect(try rig.reconcile()["inSync"] == true)
    }
}
