import Foundation
import Testing
import HTJSON

/// Alert delivery across restarts, to command and e-mail hooks, and reminder.due.
extension AlertDeliveryTests {
    // MARK: 6. a restart in the middle of an escalation

    @Test(arguments: ["SIGTERM", "SIGKILL"])
    func escalationFiresOnceAtItsTimeAcrossARestart(_ how: String) throws {
        var config = try HookConfig()
        let r = try WebhookReceiver(secret: config.secret)
        config.webhook("ward", url: r.url("/ward"))
        config.webhook("oncall", url: r.url("/oncall"))
        config.red = [(0, ["ward"]), (0.1, ["oncall"])]     // tier 1 after 6 s
        let rig = try HookRig(config, receivers: ["receiver": r])
        let id = "HOOK-Restart-\(how)"
        try rig.patient(id)
        try rig.lab(id, 128)
        try rig.waitUntil(timeout: 10, "tier 0 is delivered") { try !r.deliveries("/ward", type: "alert.opened").isEmpty }
        let alertId = try Self.alertId(rig, id)
        let openedAt = try #require(Self.epoch(Hooks.string(try rig.alerts(of: id).first?["openedAt"])))

        if how == "SIGKILL" { rig.daemon.kill9() } else { rig.daemon.stop() }
        try rig.daemon.start()

        try rig.waitUntil(timeout: 20, "tier 1 fires after the restart") {
            try !r.deliveries("/oncall", type: "alert.escalated").isEmpty
        }
        try rig.holds(for: 2, "tier 1 fires once") { try r.deliveries("/oncall").count == 1 }
        let tier1 = try r.deliveries("/oncall")[0]
        #expect(tier1.alertId == alertId)
        #expect(tier1.tier == 1)
        #expect(tier1.verified)
        #expect(tier1.receivedAt >= openedAt + 6 - 0.1, "not before its time")
        #expect(tier1.receivedAt <= openedAt + 6 + 4, "at its time (a restart does not reset the ladder)")
        // A delivery in flight at a kill may be repeated, but only with the same webhook-id.
        let openedIds = Set(try r.deliveries("/ward", type: "alert.opened").compactMap(\.id))
        #expect(openedIds.count == 1)
        #expect(Hooks.int(try rig.alerts(of: id).first?["tiersFired"]) == 2)
    }

    // MARK: 7. command hooks

    @Test func commandHooksReceiveTheEventOnStdin() throws {
        var config = try HookConfig()
        let out = config.directory.appendingPathComponent("captured")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let capture = config.directory.appendingPathComponent("capture-event")
        try Hooks.writeFile(capture.path, """
            #!/bin/sh
            set -eu
            base="$1/$HYPONATRACK_EVENT_ID.$HYPONATRACK_EVENT_TYPE"
            cat > "$base.tmp"
            env > "$base.env"
            mv "$base.tmp" "$base.json"

            """, mode: 0o755)
        let pages = config.directory.appendingPathComponent("pages.log")
        config.command("capture", path: capture.path, args: [out.path])
        config.command("pager", path: Repo.root.appendingPathComponent("scripts/examples/page-oncall").path, args: ["--log", pages.path])
        config.red = [(0, ["capture", "pager"])]
        let rig = try HookRig(config)
        let id = "HOOK-Cmd-1"
        try rig.patient(id)
        try rig.lab(id, 128)
        func captured(_ type: String) throws -> [URL] {
            try FileManager.default.contentsOfDirectory(at: out, includingPropertiesForKeys: nil)
                .filter { $0.lastPathComponent.hasSuffix(".\(type).json") }
        }
        try rig.waitUntil(timeout: 15, "both commands ran") {
            try captured("alert.opened").count == 1 && FileManager.default.fileExists(atPath: pages.path)
        }
        let file = try captured("alert.opened")[0]
        let text = try String(contentsOf: file, encoding: .utf8)
        guard case .object(let event) = try JSONParser.parse(text) else { throw TestFailure("not a JSON object: \(text)") }
        let eventId = String(file.lastPathComponent.dropLast(".alert.opened.json".count))
        #expect(Set(event.keys) == ["type", "id", "timestamp", "data"])
        #expect(Hooks.string(event["type"]) == "alert.opened")
        #expect(Hooks.string(event["id"]) == eventId, "HYPONATRACK_EVENT_ID is the event id")
        let data = try #require(Hooks.object(event["data"]))
        #expect(Self.requiredData.isSubset(of: Set(data.keys)))
        #expect(Hooks.string(data["studyId"]) == id)
        #expect(Hooks.string(data["level"]) == "red")
        #expect(Hooks.int(data["tier"]) == 0)
        #expect(rig.leakedSecrets(in: text).isEmpty)

        // The command's environment is the small documented one, never the daemon's.
        let env = try String(contentsOf: file.deletingPathExtension().appendingPathExtension("env"), encoding: .utf8)
        let names = Set(env.split(separator: "\n").compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        let allowed: Set = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "USER", "LOGNAME", "HYPONATRACK_EVENT_ID",
                            "HYPONATRACK_EVENT_TYPE", "PWD", "OLDPWD", "SHLVL", "_"]
        #expect(names.isSubset(of: allowed), "unexpected variables: \(names.subtracting(allowed))")
        #expect(env.contains("HYPONATRACK_EVENT_TYPE=alert.opened"))
        #expect(rig.leakedSecrets(in: env).isEmpty)

        // scripts/examples/page-oncall wrote its summary line.
        let alertId = try Self.alertId(rig, id)
        let line = try String(contentsOf: pages, encoding: .utf8)
        #expect(line.contains("alert.opened \(id) RED POD 6 alert \(alertId) tier 0 reasons: sodium_low"), "\(line)")

        try rig.ack(alertId)
        try rig.waitUntil(timeout: 10, "the acknowledgement reaches the command hooks") {
            try captured("alert.acknowledged").count == 1
                && (try String(contentsOf: pages, encoding: .utf8)).contains("alert.acknowledged")
        }
        try rig.waitUntil(timeout: 5, "the status shows both delivered") {
            let s = try rig.hooksStatus()
            return ["capture", "pager"].allSatisfy { Hooks.int(s[$0]?["delivered"]) == 2 && Hooks.int(s[$0]?["deadLetters"]) == 0 }
        }
    }

    // MARK: 8. e-mail over TLS

    @Test func emailHooksSendAPlainTextMessageANurseCanActOn() throws {
        let implicit = try SMTPReceiver(mode: "implicit")
        let starttls = try SMTPReceiver(mode: "starttls")
        var config = try HookConfig()
        try config.email("ward-mail", receiver: implicit, to: ["ward-nurse@clinic.example"])
        try config.email("oncall-mail", receiver: starttls, to: ["oncall@clinic.example", "lead@clinic.example"])
        config.red = [(0, ["oncall-mail", "ward-mail"])]
        let rig = try HookRig(config)
        let id = "HOOK-Mail-1"
        try rig.patient(id)
        try rig.lab(id, 128)
        try rig.waitUntil(timeout: 20, "both receivers accept a message") {
            try implicit.messages().count == 1 && starttls.messages().count == 1
        }
        let secrets = [implicit.password, starttls.password]
        for (receiver, to) in [(implicit, ["ward-nurse@clinic.example"]), (starttls, ["oncall@clinic.example", "lead@clinic.example"])] {
            let m = try receiver.messages()[0]
            #expect(Hooks.string(m["tls"]) == receiver.mode)
            #expect(Hooks.string(m["authUser"]) == receiver.user)
            #expect(m["rcptTo"] == .array(to.map { .string($0) }))
            #expect(Hooks.string(m["mailFrom"]) == "hyponatrack@clinic.example")
            #expect(Hooks.string(m["contentType"]) == "text/plain")
            #expect(Hooks.int(m["bareLineFeeds"]) == 0)
            #expect((Hooks.int(m["lineLengthMax"]) ?? 999) <= 998)
            let subject = Hooks.string(m["subject"]) ?? ""
            let body = Hooks.string(m["body"]) ?? ""
            #expect(subject.contains("RED") && subject.contains(id), "\(subject)")
            #expect(body.contains("Study ID:") && body.contains(id), "\(body)")
            #expect(body.contains("POD 6"), "\(body)")
            #expect(body.contains("RED") || body.lowercased().contains("red"), "\(body)")
            #expect(body.contains("Sodium 128 mmol/L (red at ≤ "), "the reasons in clinical words, sodium as sodium: \(body)")
            for link in ["http://", "https://", "www."] {
                #expect(!body.contains(link) && !subject.contains(link), "no link in an alert mail")
            }
            #expect(rig.leakedSecrets(in: subject + body).isEmpty)
            #expect(!secrets.contains { body.contains($0) })
        }
        // The receiver spools a message before its 250 reaches the daemon, which records the
        // delivery only after that answer and QUIT: wait for the record, not just the message.
        try rig.waitUntil(timeout: 10, "both deliveries are recorded") {
            let s = try rig.hooksStatus()
            return Hooks.int(s["ward-mail"]?["delivered"]) == 1 && Hooks.int(s["oncall-mail"]?["delivered"]) == 1
        }
    }

    // MARK: 9. reminder.due

    /// The real clock cannot be moved, so this test's reminders.json puts the check and task
    /// times at the current Berlin minute (due at once, well within the 30-minute grace) and
    /// every other time 12 hours away; quiet hours are off so the test runs at any hour.
    @Test func reminderDueReachesTheSubscribedHookOnceAtItsTime() throws {
        var now = Hooks.berlinNow()
        if now.minute >= 1438 {         // too close to midnight: the plan's day would change under us
            try waitUntil(timeout: 150) { Hooks.berlinNow().minute < 1438 }
            now = Hooks.berlinNow()
        }
        let current = Hooks.hhmm(now.minute)
        var farMinute = (now.minute + 720) % 1440
        if farMinute >= 1439 { farMinute = 1437 }
        let far = Hooks.hhmm(farMinute), farther = Hooks.hhmm(farMinute + 1)

        var config = try HookConfig()
        let r = try WebhookReceiver(secret: config.secret)
        config.webhook("gateway", url: r.url("/gateway"), events: ["reminder.due"])
        config.webhook("ward", url: r.url("/ward"))
        config.red = [(0, ["ward"])]
        config.yellow = [(0, ["ward"])]
        config.reminders = { o in
            o["checkTimes"] = ["morning": .string(current), "evening": .string(far)]
            o["deadlines"] = ["morning": .string(far), "evening": .string(farther)]
            o["taskTimes"] = ["urine_sg": .string(current), "reaction_test": .string(current), "tapping_test": .string(current),
                              "desmopressin": .string(current), "fluid_log": .string(far)]
            o["catchUp"] = .string(far)
            o["quietHours"] = ["from": "00:00", "to": "00:00"]
        }
        let rig = try HookRig(config, receivers: ["receiver": r])
        // Both on POD 6 (critical window): elevated, so task reminders too.
        try rig.patient("HOOK-Rem-Simple", [("simplifiedMode", true), ("desmopressinPrescribed", true)])
        try rig.patient("HOOK-Rem-Full")
        let e = try rig.daemon.request(.post, "/v1/patients", token: rig.nurse, body: Study.profile("HOOK-Rem-NotActivated"))
        #expect(e.status == 201)

        func reminders(_ studyId: String) throws -> [WebhookDelivery] {
            try r.deliveries("/gateway", type: "reminder.due").filter { $0.studyId == studyId }
        }
        try rig.waitUntil(timeout: 10, "the due reminders are delivered") {
            try reminders("HOOK-Rem-Simple").count >= 3 && reminders("HOOK-Rem-Full").count >= 4
        }
        try rig.holds(for: 1.5, "each reminder is sent once") {
            try reminders("HOOK-Rem-Simple").count == 3 && reminders("HOOK-Rem-Full").count == 4
        }
        func summary(_ ds: [WebhookDelivery]) -> Set<String> {
            Set(ds.map { d in
                var tasks: [String] = []
                if case .array(let items)? = d.data?["tasks"] { tasks = items.compactMap { Hooks.string($0) }.sorted() }
                return "\(Hooks.string(d.data?["kind"]) ?? "?") \(tasks.joined(separator: ","))"
            })
        }
        let morning = "symptoms_morning,urine_sg,weight_morning"
        // Simplified mode hides the reaction and tapping tests; desmopressin only when prescribed.
        #expect(summary(try reminders("HOOK-Rem-Simple")) == ["check \(morning)", "task urine_sg", "task desmopressin"])
        #expect(summary(try reminders("HOOK-Rem-Full")) == ["check \(morning)", "task urine_sg", "task reaction_test", "task tapping_test"])
        #expect(try reminders("HOOK-Rem-NotActivated").isEmpty, "no reminders before activation")
        #expect(try r.deliveries("/ward", type: "reminder.due").isEmpty, "only subscribers get reminder.due")
        let today = Study.date(0)
        for d in try r.deliveries("/gateway") {
            #expect(d.verified)
            #expect(d.type == "reminder.due")
            #expect(Hooks.string(d.data?["date"]) == today)
            #expect(Hooks.int(d.data?["pod"]) == 6)
            #expect(Hooks.string(d.data?["intensity"]) == "elevated")
            #expect(Hooks.string(d.data?["at"])?.hasPrefix("\(today)T\(current):00") == true, "\(Hooks.string(d.data?["at"]) ?? "")")
            #expect(rig.leakedSecrets(in: d.body).isEmpty)
        }
    }
}
