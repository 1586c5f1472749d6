import Foundation
import Testing
import HTJSON

/// `hyponatrack audit checkpoint` and the daily checkpoint send the chain head to the hooks that
/// subscribe to `audit.checkpoint`; `audit verify --checkpoint SEQ:HEX` then catches what even a
/// key holder rewrites before it.
@Suite struct AuditCheckpointTests {
    @Test func aCheckpointReachesTheWebhookAndCatchesHistoryRewrittenWithTheKey() throws {
        var config = try HookConfig()
        let receiver = try WebhookReceiver(secret: config.secret)
        config.webhook("anchor", url: receiver.url("/anchor"), events: ["audit.checkpoint"])
        let rig = try HookRig(config, receivers: ["anchor": receiver])
        let token = try rig.patient("CP-1")
        _ = try rig.putDay(token, Study.date(0), ["weightMorningKg": 80.4])

        // The scheduler's first tick made the day's checkpoint.
        try rig.waitUntil("the daily checkpoint arrived") { try !receiver.deliveries("/anchor", type: "audit.checkpoint").isEmpty }
        let daily = try #require(try receiver.deliveries("/anchor", type: "audit.checkpoint").first)
        #expect(daily.verified && Hooks.string(daily.data?["reason"]) == "daily")

        let cli = try rig.cli(["audit", "checkpoint"], token: rig.admin)
        #expect(cli.status == 0, "\(cli.stderr)")
        let line = cli.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = line.split(separator: ":")
        #expect(parts.count == 2 && parts[1].count == 64, "\(line)")
        try rig.waitUntil("the requested checkpoint arrived") {
            try receiver.deliveries("/anchor", type: "audit.checkpoint").contains { Hooks.string($0.data?["checkpoint"]) == line }
        }
        let event = try #require(try receiver.deliveries("/anchor", type: "audit.checkpoint").last)
        #expect(event.verified && Hooks.string(event.data?["reason"]) == "requested")
        #expect(Hooks.int(event.data?["seq"]).map(String.init) == String(parts[0]) && Hooks.string(event.data?["hash"]) == String(parts[1]))
        // The checkpoint is audited: it is the row it names.
        let rows = try rig.daemon.request(.get, "/v1/audit?limit=1000", token: rig.admin)
        guard case .array(let entries) = rows.json else { Issue.record("\(rows.text)"); return }
        let row = entries.compactMap(Hooks.object).first { Hooks.int($0["seq"]).map(String.init) == String(parts[0]) }
        #expect(row.map { Hooks.string($0["action"]) } == "audit.checkpoint" && row.map { Hooks.string($0["actor"]) } == "staff:bootstrap-admin")

        let unanchored = try rig.cli(["audit", "verify"], token: rig.admin)
        #expect(unanchored.status == 0 && unanchored.stdout.contains("intact") && !unanchored.stdout.contains("checkpoint"),
                "no checkpoint was given, none is claimed: \(unanchored.stdout)")
        let good = try rig.cli(["audit", "verify", "--checkpoint", line], token: rig.admin)
        #expect(good.status == 0 && good.stdout.contains("matches checkpoint \(line)"), "\(good.stdout)\(good.stderr)")
        let wrongHash = String(parts[0]) + ":" + String(repeating: "0", count: 64)
        let wrong = try rig.cli(["audit", "verify", "--checkpoint", wrongHash], token: rig.admin)
        #expect(wrong.status == 1 && wrong.stderr.contains("does NOT match checkpoint \(wrongHash)"), "\(wrong.stderr)")
        let future = try rig.cli(["audit", "verify", "--checkpoint", "99999:\(parts[1])"], token: rig.admin)
        #expect(future.status == 1 && future.stderr.contains("cut off"), "\(future.stderr)")
        let malformed = try rig.cli(["audit", "verify", "--checkpoint", "twelve"], token: rig.admin)
        #expect(malformed.status == 1 && malformed.stderr.contains("checkpoint"), "\(malformed.stderr)")
        let api = try rig.daemon.request(.get, "/v1/audit/verify?checkpoint=\(wrongHash)", token: rig.nurse)
        #expect(api.status == 200 && api["intact"] == false)

        // Someone holding the key rewrites the submission before the checkpoint and re-hashes
        // the whole chain: it verifies, but not against the checkpoint.
        rig.daemon.stop()
        let trail = AuditTrailFile(dataDir: rig.daemon.dataDir)
        let key = try AuditTrailFile.key(file: rig.daemon.dataDir.deletingLastPathComponent().appendingPathComponent("audit-key").path)
        try trail.tamper("UPDATE audit_log SET details = replace(details, '80.4', '70.4') WHERE action = 'day.submit';")
        try trail.rehash(.hmac(key: key))
        try rig.daemon.start()
        let plain = try rig.cli(["audit", "verify"], token: rig.admin)
        #expect(plain.status == 0, "\(plain.stderr)")
        let anchored = try rig.cli(["audit", "verify", "--checkpoint", line], token: rig.admin)
        #expect(anchored.status == 1 && anchored.stderr.contains("rewritten"), "\(anchored.stderr)")
    }

    @Test func checkpointsAreForAdminsAndWorkWithoutSubscribers() throws {
        let d = try TestDaemon()
        // All-sites: `audit verify` is for all-sites staff (docs/product.md, settled S).
        let nurse = try Study.staff(d, "cp-nurse-\(UUID().uuidString.prefix(6))", role: "nurse", allSites: true)
        #expect(try d.request(.post, "/v1/audit/checkpoints", token: nurse).status == 403)
        let r = try d.request(.post, "/v1/audit/checkpoints", token: d.adminToken)
        #expect(r.status == 201 && r["hooks"] == .array([]), "\(r.text)")
        guard case .string(let checkpoint)? = r["checkpoint"] else { Issue.record("\(r.text)"); return }
        let cli = try CLIRunner.run(["audit", "verify", "--checkpoint", checkpoint, "--json"], server: d.baseURL, token: nurse)
        let json = try JSONParser.parse(Array(cli.stdout.utf8))
        #expect(cli.status == 0 && Hooks.bool(Hooks.object(Hooks.object(json)?["checkpoint"])?["matches"]) == true, "\(cli.stdout)")
    }
}
