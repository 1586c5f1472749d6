import Foundation
import Testing
import HTJSON

/// Alerts reaching people, end to end: the real daemon (real clock, a 0.2 s scheduler, ladders of
/// fractional minutes) delivers to independent peers — `scripts/webhook-receiver` (verifies the
/// Standard Webhooks signature and timestamp itself, fails on demand), `scripts/smtp-receiver`
/// (TLS, AUTH) and command hooks (`scripts/examples/page-oncall` and a script that keeps stdin).
/// Each test has its own daemon, configuration and peers.
@Suite struct AlertDeliveryTests {
    static let requiredData: Set<String> = ["alertId", "studyId", "date", "pod", "level", "kind", "reasons", "riskClass", "tier"]

    /// Seconds since the epoch of an ISO 8601 instant as the API prints it (milliseconds, Z).
    static func epoch(_ iso: String?) -> Double? {
        guard let iso else { return nil }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: iso) { return d.timeIntervalSince1970 }
        return ISO8601DateFormatter().date(from: iso)?.timeIntervalSince1970
    }

    static func reasonCodes(_ d: WebhookDelivery) -> [String: String] {
        guard case .array(let items)? = d.data?["reasons"] else { return [:] }
        var out: [String: String] = [:]
        for case .object(let o) in items { if let c = Hooks.string(o["code"]) { out[c] = Hooks.string(o["level"]) ?? "" } }
        return out
    }

    static func alertId(_ rig: HookRig, _ studyId: String) throws -> Int {
        guard let a = try rig.alerts(of: studyId).first, let id = Hooks.int(a["id"]) else { throw TestFailure("no alert for \(studyId)") }
        return id
    }

    // MARK: 1. a red evaluation, signed, at once, to tier 0

    @Test func redEvaluationIsDeliveredSignedToTierZeroWithoutSecrets() throws {
        var config = try HookConfig()
        let receiver = try WebhookReceiver(secret: config.secret)
        config.webhook("ward", url: receiver.url("/ward"))
        config.webhook("oncall", url: receiver.url("/oncall"))
        config.red = [(0, ["ward"]), (60, ["oncall"])]
        config.yellow = [(0, ["ward"])]
        let rig = try HookRig(config, receivers: ["receiver": receiver])
        try rig.patient("HOOK-Red-Lab")
        let confusedToken = try rig.patient("HOOK-Red-Confused")
        let today = Study.date(0)

        let lab = try rig.lab("HOOK-Red-Lab", 128)
        #expect(lab.level == "red")
        let day = try rig.putDay(confusedToken, today, ["symptoms": [Study.symptom("s1", today, confusion: 1, vas: 5)]])
        #expect(day["level"] == "red")
        try rig.waitUntil(timeout: 10, "both alert.opened events reach the tier-0 hook") {
            try receiver.deliveries("/ward", type: "alert.opened").count == 2
        }

        let alerts = try rig.alerts()
        let deliveries = try receiver.deliveries("/ward")
        #expect(deliveries.count == 2, "\(deliveries.map(\.summary))")
        for d in deliveries {
            #expect(d.verified, "the receiver could not verify the signature: \(d.error ?? "")")
            #expect(d.answered == 200)
            #expect(d.signature?.hasPrefix("v1,") == true)
            let event = try #require(d.event)
            #expect(Set(event.keys) == ["type", "id", "timestamp", "data"])
            #expect(Hooks.string(event["id"]) == d.id, "webhook-id is the event id")
            #expect(Hooks.string(event["type"]) == "alert.opened")
            let sent = try #require(Self.epoch(Hooks.string(event["timestamp"])))
            #expect(abs(sent - Date().timeIntervalSince1970) < 60)
            #expect(abs((Double(d.timestamp ?? "") ?? 0) - Date().timeIntervalSince1970) < 60)
            let data = try #require(d.data)
            #expect(Self.requiredData.isSubset(of: Set(data.keys)), "data keys: \(data.keys)")
            #expect(d.tier == 0)
            #expect(d.level == "red")
            #expect(Hooks.string(data["kind"]) == "evaluation")
            #expect(Hooks.string(data["date"]) == today)
            #expect(Hooks.int(data["pod"]) == 6)
            #expect(Hooks.string(data["riskClass"]) == "low")
            let alert = try #require(alerts.first { Hooks.int($0["id"]) == d.alertId })
            #expect(Hooks.string(alert["studyId"]) == d.studyId)
            #expect(rig.leakedSecrets(in: d.body + (d.id ?? "") + (d.timestamp ?? "")).isEmpty,
                    "a token, code or secret appears in the delivery")
        }
        let byStudy = Dictionary(deliveries.map { ($0.studyId ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byStudy["HOOK-Red-Lab"].map(Self.reasonCodes)?["sodium_low"] == "red")
        #expect(byStudy["HOOK-Red-Confused"].map(Self.reasonCodes)?["confusion"] == "red")
        #expect(Set(deliveries.compactMap(\.id)).count == 2, "each event has its own id")

        // Tier 1 is an hour away: nobody else has heard yet.
        #expect(try receiver.deliveries("/oncall").isEmpty)
        // The receiver has the events before the daemon has its answers: wait for the record.
        try rig.waitUntil(timeout: 10, "both deliveries are recorded") { Hooks.int(try rig.hooksStatus()["ward"]?["delivered"]) == 2 }
        let ward = try #require(try rig.hooksStatus()["ward"])
        #expect(Hooks.int(ward["pending"]) == 0)
        #expect(Hooks.int(ward["deadLetters"]) == 0)
        #expect(Hooks.bool(ward["disabled"]) == false)
    }

    // MARK: 2. retries: the same webhook-id, a hook that is down, retry-after

    @Test func failedDeliveriesAreRetriedWithTheSameWebhookIdWithoutBlockingOthers() throws {
        var config = try HookConfig()
        let flaky = try WebhookReceiver(secret: config.secret)
        let healthy = try WebhookReceiver(secret: config.secret)
        let down = try WebhookReceiver(secret: config.secret, port: try TestDaemon.freePort(), start: false)
        config.webhook("flaky", url: flaky.url("/flaky"))
        config.webhook("down", url: down.url("/down"))
        config.webhook("healthy", url: healthy.url("/healthy"))
        config.red = [(0, ["down", "flaky", "healthy"])]
        let rig = try HookRig(config, receivers: ["flaky": flaky, "healthy": healthy])
        try rig.patient("HOOK-Retry")
        // Two answers 503 with retry-after: 1, then 200.
        try flaky.control(["status": 503, "count": 2, "retryAfter": 1])

        let raisedAt = Date().timeIntervalSince1970
        try rig.lab("HOOK-Retry", 128)
        try rig.waitUntil(timeout: 5, "the healthy hook gets the event although the others fail") {
            try !healthy.deliveries("/healthy").isEmpty
        }
        #expect(try healthy.deliveries("/healthy")[0].receivedAt - raisedAt < 4)
        try rig.waitUntil(timeout: 5, "the first attempt to the down hook fails and is kept") {
            let s = try rig.hooksStatus()["down"]
            return Hooks.int(s?["pending"]) == 1 && Hooks.string(s?["lastError"]) != nil
        }
        try down.start()
        rig.receivers["down"] = down

        try rig.waitUntil(timeout: 15, "the flaky hook is delivered after two 503s") {
            try flaky.deliveries("/flaky").last?.answered == 200
        }
        try rig.waitUntil(timeout: 15, "the down hook is delivered once it is up") { try !down.deliveries("/down").isEmpty }

        let eventId = try #require(try healthy.deliveries("/healthy").first?.id)
        let attempts = try flaky.deliveries("/flaky")
        #expect(attempts.map(\.answered) == [503, 503, 200])
        #expect(attempts.allSatisfy { $0.verified }, "\(attempts.map { $0.error ?? "" })")
        #expect(attempts.allSatisfy { $0.id == eventId }, "every retry repeats the webhook-id")
        #expect(Set(attempts.map(\.body)).count == 1, "every retry sends the same body")
        for (a, b) in zip(attempts, attempts.dropFirst()) {
            #expect(b.receivedAt - a.receivedAt >= 0.9, "retry-after: 1 is honoured")
            #expect((Int(b.timestamp ?? "") ?? 0) >= (Int(a.timestamp ?? "") ?? 0))
        }
        let late = try down.deliveries("/down")
        #expect(late.count == 1)
        #expect(late.first?.verified == true)
        #expect(late.first?.id == eventId)
        // The first retry waits about 5 s (Standard Webhooks schedule, ±10 % jitter).
        #expect((late.first?.receivedAt ?? 0) - raisedAt >= 4.4)
        #expect((Double(late.first?.timestamp ?? "") ?? 0) >= raisedAt + 4, "a retry is signed with its own timestamp")

        try rig.waitUntil(timeout: 5, "the status shows every hook delivered") {
            let s = try rig.hooksStatus()
            return ["down", "flaky", "healthy"].allSatisfy { Hooks.int(s[$0]?["delivered"]) == 1 && Hooks.int(s[$0]?["pending"]) == 0 }
        }
        #expect(try rig.hooksStatus().values.allSatisfy { Hooks.int($0["deadLetters"]) == 0 })
    }

    // MARK: 3. 410 Gone disables the hook

    @Test func goneDisablesTheHookAndLaterEventsBecomeDeadLetters() throws {
        var config = try HookConfig()
        let retired = try WebhookReceiver(secret: config.secret)
        let ward = try WebhookReceiver(secret: config.secret)
        config.webhook("retired", url: retired.url("/retired"))
        config.webhook("ward", url: ward.url("/ward"))
        config.red = [(0, ["retired", "ward"])]
        let rig = try HookRig(config, receivers: ["retired": retired, "ward": ward])
        try rig.patient("HOOK-Gone-1")
        try rig.patient("HOOK-Gone-2")
        try retired.control(["status": 410])

        try rig.lab("HOOK-Gone-1", 128)
        try rig.waitUntil(timeout: 10, "the 410 disables the hook") {
            let s = try rig.hooksStatus()["retired"]
            return Hooks.bool(s?["disabled"]) == true && Hooks.int(s?["deadLetters"]) == 1
        }
        #expect(try retired.deliveries().map(\.answered) == [410])
        try rig.waitUntil(timeout: 5, "the other hook still gets the event") { try ward.deliveries("/ward").count == 1 }

        // It would answer 200 now, but a disabled endpoint is not called again.
        try retired.control(["reset": true])
        try rig.lab("HOOK-Gone-2", 127)
        try rig.waitUntil(timeout: 10, "the second event reaches the ward") { try ward.deliveries("/ward").count == 2 }
        try rig.waitUntil(timeout: 10, "the second event is a dead letter of the disabled hook") {
            Hooks.int(try rig.hooksStatus()["retired"]?["deadLetters"]) == 2
        }
        #expect(try retired.deliveries().isEmpty, "a disabled hook is never called again")

        let status = try #require(try rig.hooksStatus()["retired"])
        #expect(Hooks.string(status["disabledReason"])?.contains("410") == true)
        #expect(Hooks.int(status["pending"]) == 0)
        guard case .array(let dead)? = status["dead"] else { throw TestFailure("no dead letters listed") }
        #expect(dead.count == 2)
        #expect(Hooks.int(try rig.hooksStatus()["ward"]?["deadLetters"]) == 0)

        // The CLI says so, and exits 1 because there are dead letters.
        let cli = try rig.cli(["hooks", "status"])
        #expect(cli.status == 1, "\(cli.stdout)\(cli.stderr)")
        let row = cli.stdout.split(separator: "\n").first { $0.hasPrefix("retired") }
        #expect(row.map { $0.contains(" yes ") || $0.contains(" true ") } == true, "the DISABLED column: \(cli.stdout)")
        #expect(cli.stdout.contains("Dead letters of retired"))
        #expect(cli.stdout.contains("410"))
        let json = try rig.cli(["hooks", "status", "--json"])
        guard case .array(let items) = try JSONParser.parse(json.stdout) else { throw TestFailure("hooks status --json: \(json.stdout)") }
        let retiredJSON = items.compactMap { Hooks.object($0) }.first { Hooks.string($0["name"]) == "retired" }
        #expect(Hooks.bool(retiredJSON?["disabled"]) == true)
    }

    // MARK: 4. the ladder climbs in order; acknowledgement stops it

    @Test func redLadderClimbsInOrderAndAcknowledgementStopsIt() throws {
        var config = try HookConfig()
        let r = try WebhookReceiver(secret: config.secret)
        for name in ["ward", "oncall", "lead"] { config.webhook(name, url: r.url("/\(name)")) }
        // Tier 1 after 1.8 s, tier 2 after 6 s.
        config.red = [(0, ["ward"]), (0.03, ["oncall"]), (0.1, ["lead"])]
        let rig = try HookRig(config, receivers: ["receiver": r])
        try rig.patient("HOOK-Climb")
        try rig.patient("HOOK-Acked")
        try rig.lab("HOOK-Climb", 128)
        try rig.lab("HOOK-Acked", 128)
        let climb = try Self.alertId(rig, "HOOK-Climb")
        let acked = try Self.alertId(rig, "HOOK-Acked")

        try rig.waitUntil(timeout: 10, "tier 1 of the second alert") {
            try r.deliveries("/oncall", type: "alert.escalated").contains { $0.alertId == acked }
        }
        try rig.ack(acked, note: "patient reached, coming in")
        try rig.waitUntil(timeout: 15, "tier 2 of the first alert") {
            try r.deliveries("/lead", type: "alert.escalated").contains { $0.alertId == climb }
        }
        let openedAt = try #require(Self.epoch(Hooks.string(try rig.alerts().first { Hooks.int($0["id"]) == climb }?["openedAt"])))
        let opened = try #require(try r.deliveries("/ward", type: "alert.opened").first { $0.alertId == climb })
        let tier1 = try #require(try r.deliveries("/oncall", type: "alert.escalated").first { $0.alertId == climb })
        let tier2 = try #require(try r.deliveries("/lead", type: "alert.escalated").first { $0.alertId == climb })
        #expect(opened.tier == 0 && tier1.tier == 1 && tier2.tier == 2)
        #expect(opened.seq < tier1.seq && tier1.seq < tier2.seq, "tiers arrive in order")
        #expect(tier1.receivedAt >= openedAt + 1.8 - 0.05, "tier 1 not before 0.03 min")
        #expect(tier2.receivedAt >= openedAt + 6 - 0.05, "tier 2 not before 0.1 min")
        #expect(tier2.receivedAt <= openedAt + 6 + 4, "tier 2 on time")
        #expect([opened, tier1, tier2].allSatisfy { $0.verified && $0.level == "red" })

        // The acknowledged alert never reaches tier 2 (its due time passed with the other's).
        try rig.holds(for: 1.5, "no tier 2 for the acknowledged alert") {
            try !r.deliveries("/lead").contains { $0.alertId == acked }
        }

        try rig.ack(climb)
        try rig.resolve(climb, note: "admitted, Na 134", sodium: 134)
        try rig.resolve(acked, note: "outpatient recheck fine")
        func heard(_ hook: String, _ id: Int, _ type: String) throws -> Bool {
            try r.deliveries("/\(hook)", type: type).contains { $0.alertId == id }
        }
        try rig.waitUntil(timeout: 10, "every hook that heard gets the acknowledgement and the resolution") {
            try ["ward", "oncall", "lead"].allSatisfy { try heard($0, climb, "alert.acknowledged") && heard($0, climb, "alert.resolved") }
                && ["ward", "oncall"].allSatisfy { try heard($0, acked, "alert.acknowledged") && heard($0, acked, "alert.resolved") }
        }
        try rig.holds(for: 1, "the lead never hears of the alert acknowledged before tier 2") {
            try !r.deliveries("/lead").contains { $0.alertId == acked }
        }
        let resolved = try #require(try r.deliveries("/oncall", type: "alert.resolved").first { $0.alertId == climb })
        #expect(Hooks.string(resolved.data?["note"]) == "admitted, Na 134")
        #expect({ if case .number(134)? = resolved.data?["sodium"] { true } else { false } }())
        #expect(Hooks.string(resolved.data?["by"])?.contains("nurse-") == true, "who resolved: \(resolved.body)")
        let ackEvent = try #require(try r.deliveries("/ward", type: "alert.acknowledged").first { $0.alertId == acked })
        #expect(Hooks.string(ackEvent.data?["note"]) == "patient reached, coming in")
        #expect(try r.deliveries().allSatisfy { $0.verified && rig.leakedSecrets(in: $0.body).isEmpty })

        let alerts = try rig.alerts()
        #expect(Hooks.int(alerts.first { Hooks.int($0["id"]) == climb }?["tiersFired"]) == 3)
        #expect(Hooks.int(alerts.first { Hooks.int($0["id"]) == acked }?["tiersFired"]) == 2)
        #expect(alerts.allSatisfy { Hooks.string($0["state"]) == "resolved" })
    }

    // MARK: 5. worsening: same alert, alert.worsened, the ladder restarts; only a worsening reopens

    @Test func worseningUpdatesTheSameAlertAndRestartsTheLadder() throws {
        var config = try HookConfig()
        let r = try WebhookReceiver(secret: config.secret)
        config.webhook("ward", url: r.url("/ward"))
        config.webhook("oncall", url: r.url("/oncall"))
        // Tier 1 after 3 s on both ladders.
        config.red = [(0, ["ward"]), (0.05, ["oncall"])]
        config.yellow = [(0, ["ward"]), (0.05, ["oncall"])]
        let rig = try HookRig(config, receivers: ["receiver": r])
        let id = "HOOK-Worse"
        try rig.patient(id)

        let yellowLab = try rig.lab(id, 133)
        #expect(yellowLab.level == "yellow")
        try rig.waitUntil(timeout: 10, "the yellow alert is opened") { try !r.deliveries("/ward", type: "alert.opened").isEmpty }
        let opened = try r.deliveries("/ward", type: "alert.opened")[0]
        #expect(opened.level == "yellow")
        let worsenedAt = Date().timeIntervalSince1970
        let redLab = try rig.lab(id, 128)
        #expect(redLab.level == "red")
        #expect(worsenedAt - opened.receivedAt < 2.5, "the worsening must come before the yellow tier 1 is due")
        try rig.waitUntil(timeout: 10, "alert.worsened reaches tier 0") { try !r.deliveries("/ward", type: "alert.worsened").isEmpty }
        let worsened = try r.deliveries("/ward", type: "alert.worsened")[0]
        #expect(worsened.alertId == opened.alertId, "a worsening updates the same alert")
        #expect(worsened.level == "red")
        #expect(worsened.tier == 0)
        #expect(Self.reasonCodes(worsened)["sodium_low"] == "red")

        try rig.waitUntil(timeout: 10, "the restarted red ladder reaches tier 1") {
            try !r.deliveries("/oncall", type: "alert.escalated").isEmpty
        }
        let escalated = try r.deliveries("/oncall", type: "alert.escalated")[0]
        #expect(escalated.level == "red")
        #expect(escalated.alertId == opened.alertId)
        #expect(escalated.receivedAt >= worsenedAt + 3 - 0.1, "tier 1 counts from the worsening, not the opening")
        try rig.holds(for: 1.5, "the superseded yellow ladder never escalates") {
            try r.deliveries("/oncall", type: "alert.escalated").count == 1
        }
        var alerts = try rig.alerts(of: id)
        #expect(alerts.count == 1)
        #expect(Hooks.string(alerts.first?["level"]) == "red")

        // Improvement never closes: both labs withdrawn, the day is green, the alert stays open and red.
        let before = try r.deliveries().count
        try rig.deleteLab(id, redLab.labId)
        try rig.deleteLab(id, yellowLab.labId)
        try rig.holds(for: 1, "nothing is sent for an improvement") { try r.deliveries().count == before }
        alerts = try rig.alerts(of: id)
        #expect(alerts.count == 1)
        #expect(Hooks.string(alerts.first?["state"]) == "open")
        #expect(Hooks.string(alerts.first?["level"]) == "red")

        let firstId = try #require(opened.alertId)
        try rig.resolve(firstId, note: "lab error, rechecked")
        try rig.waitUntil(timeout: 10, "both hooks hear of the resolution") {
            try r.deliveries("/ward", type: "alert.resolved").count == 1 && r.deliveries("/oncall", type: "alert.resolved").count == 1
        }
        // The same red again after resolve is no worsening: no new alert.
        try rig.lab(id, 128)
        #expect(try rig.alerts(of: id).count == 1)
        // A new red reason is: a new alert for the same day.
        let profound = try rig.lab(id, 124)
        #expect(profound.level == "red")
        try rig.waitUntil(timeout: 10, "a new alert is opened after the resolve") {
            try r.deliveries("/ward", type: "alert.opened").count == 2
        }
        let reopened = try r.deliveries("/ward", type: "alert.opened")[1]
        #expect(reopened.alertId != firstId)
        #expect(Self.reasonCodes(reopened)["sodium_profound"] == "red")
        alerts = try rig.alerts(of: id)
        #expect(alerts.count == 2)
        #expect(Set(alerts.compactMap { Hooks.string($0["date"]) }).count == 1, "both alerts are for the same day")
    }
}
