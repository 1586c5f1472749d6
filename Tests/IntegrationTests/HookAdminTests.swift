import Foundation
import HTJSON
import Testing

/// `hyponatrack hooks list|retry EVENT_ID|enable NAME` against the real daemon and a real
/// webhook receiver (scripts/webhook-receiver): a 410 disables the hook and its event is dead;
/// `hooks list` shows it, `retry` is refused while the hook is disabled, `enable` and then
/// `retry` deliver it with the same webhook-id; both are audited; `/metrics` counts the dead
/// letter while it is one.
@Suite struct HookAdminTests {
    func events(_ rig: HookRig, _ args: [String] = []) throws -> [JSONObject] {
        let r = try rig.cli(["hooks", "list", "--json"] + args)
        guard r.status == 0, case .array(let items) = try JSONParser.parse(r.stdout) else {
            throw TestFailure("hooks list: \(r.status) \(r.stdout)\(r.stderr)")
        }
        return items.compactMap(Hooks.object)
    }

    @Test func aDeadEventOfADisabledHookIsRetriedAfterTheHookIsEnabled() throws {
        var config = try HookConfig()
        let receiver = try WebhookReceiver(secret: config.secret)
        config.webhook("archive", url: receiver.url("/archive"), events: ["audit.checkpoint"])
        let rig = try HookRig(config, receivers: ["archive": receiver])
        try receiver.control(["status": 410])
        #expect(try rig.daemon.request(.post, "/v1/audit/checkpoints", token: rig.admin).status == 201)
        // The day's own checkpoint (the scheduler's, at start) goes to the hook as well: one or two events.
        try rig.waitUntil(timeout: 10, "the 410 disables the hook and nothing is left pending") {
            let status = try rig.hooksStatus()["archive"]
            return Hooks.bool(status?["disabled"]) == true && Hooks.int(status?["pending"]) == 0
        }
        let dead = try events(rig, ["--state", "dead"])
        #expect(!dead.isEmpty && dead.allSatisfy { Hooks.string($0["state"]) == "dead" }, "\(dead)")
        let eventId = try #require(Hooks.string(dead.first?["eventId"]))
        #expect(Hooks.string(dead.first?["type"]) == "audit.checkpoint" && Hooks.string(dead.first?["hook"]) == "archive")
        let text = try rig.cli(["hooks", "list"])
        #expect(text.stdout.contains(eventId) && text.stdout.contains("dead"), "\(text.stdout)")
        let metrics = try rig.daemon.request(.get, "/metrics").text
        #expect(metrics.contains("hyponatrack_hook_events{hook=\"archive\",state=\"dead\"} \(dead.count)\n"), "\(metrics)")

        // Refused while disabled; a nurse may not; then the admin enables and retries.
        let refused = try rig.cli(["hooks", "retry", eventId], token: rig.admin)
        #expect(refused.status == 1 && refused.stderr.contains("hooks enable archive"), "\(refused.stderr)")
        #expect(try rig.cli(["hooks", "enable", "archive"]).status == 77)
        try receiver.control(["reset": true])
        let enabled = try rig.cli(["hooks", "enable", "archive"], token: rig.admin)
        #expect(enabled.status == 0, "\(enabled.stderr)")
        #expect(try rig.cli(["hooks", "enable", "archive"], token: rig.admin).status == 1, "enabling an enabled hook is a conflict")
        #expect(Hooks.bool(try rig.hooksStatus()["archive"]?["disabled"]) == false)
        #expect(try receiver.deliveries().isEmpty, "enabling sends nothing by itself")
        let retried = try rig.cli(["hooks", "retry", eventId], token: rig.admin)
        #expect(retried.status == 0 && retried.stdout.contains("archive"), "\(retried.stdout)\(retried.stderr)")
        try rig.waitUntil(timeout: 10, "the retried event arrives") { try receiver.deliveries("/archive").count == 1 }
        #expect(try receiver.deliveries("/archive").first?.id == eventId, "the same webhook-id")
        try rig.waitUntil(timeout: 10, "the event is delivered") {
            try events(rig, ["--state", "delivered"]).contains { Hooks.string($0["eventId"]) == eventId }
        }
        #expect(try rig.cli(["hooks", "retry", eventId], token: rig.admin).status == 1, "a delivered event has nothing to retry")
        let unknown = try rig.cli(["hooks", "retry", "evt_000000000000000000000000"], token: rig.admin)
        #expect(unknown.status == 1 && unknown.stderr.contains("no hook event"), "\(unknown.stderr)")

        let audit = try rig.daemon.request(.get, "/v1/audit?limit=1000", token: rig.admin)
        guard case .array(let rows) = audit.json else { throw TestFailure(audit.text) }
        let actions = rows.compactMap { Hooks.string(Hooks.object($0)?["action"]) }
        #expect(actions.filter { $0 == "hook.enable" }.count == 1 && actions.filter { $0 == "hook.retry" }.count == 1, "\(actions)")
    }
}
