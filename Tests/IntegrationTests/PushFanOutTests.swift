import Foundation
import HTJSON
import HTTPClient
import Testing

/// A `kill -9` in the middle of a fan-out (docs/product.md, W, "Delivery": "across restarts and
/// `kill -9` a delivery is sent once; a crash between the push service's answer and its record
/// may send that one again, with the same collapse id"): the real daemon, 500 patients with an
/// iPhone each and two reminders due at once — 1,000 reminders, 1,000 deliveries — multiplexed
/// over HTTP/2 to `scripts/apns-emulator`, which answers slowly enough for the kill to land
/// mid-way.
@Suite(.serialized) struct PushFanOutTests {
    static let patients = 500
    /// What may be repeated at most: the streams in flight (4 connections × 100) and the outcomes
    /// answered but not yet committed (the batch being filled and the batches queued for the
    /// writer: PushOutcomes.batchCount × (queuedBatches + 1)).
    static let inFlight = 4 * 100 + 32 * 5

    @Test func aKill9DuringAFanOutOf1000RemindersLosesNoneAndRepeatsOnlyTheInFlightWithTheirCollapseIds() throws {
        if Hooks.berlinNow().minute >= 1430 { try waitUntil(timeout: 700) { Hooks.berlinNow().minute < 1430 } }
        var config = try HookConfig()
        config.reminders = PushReminderTests.morningNow("23:53")   // every reminder late today, for now
        let keyFile = config.directory.appendingPathComponent("apns.p8").path
        try PushReminderTests.Rig.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile])
        chmod(keyFile, 0o600)
        let apns = try APNsEmulator(directory: config.directory.appendingPathComponent("apns"), keyFile: keyFile,
                                    keyId: "ABCDEFGHIJ", teamId: "KLMNOPQRST", topic: "org.example.hyponatrack")
        config.push = ["apns": ["keyFile": .string(keyFile), "keyId": "ABCDEFGHIJ", "teamId": "KLMNOPQRST",
                                "topic": "org.example.hyponatrack", "url": .string("https://127.0.0.1:\(apns.port)")],
                       "caFile": .string(apns.caFile)]
        let rig = try HookRig(config)
        var tokens: Set<String> = []
        for n in 0..<Self.patients {
            let token = try rig.patient("FAN-\(n)")
            let device = String(format: "%08x", n) + String(repeating: "b", count: 56)
            tokens.insert(device)
            let r = try rig.daemon.request(.put, "/v1/me/devices/iphone-\(n)", token: token,
                                           body: ["platform": "apns", "token": .string(device)])
            guard r.status == 201 else { throw TestFailure("device \(n): \(r.status) \(r.text)") }
        }
        try apns.pace(ms: 4)
        // The morning check and the urine_sg task of POD 6 due now for all 500: reload the rules.
        config.reminders = PushReminderTests.morningNow(Hooks.hhmm(Hooks.berlinNow().minute))
        _ = try config.write()
        rig.daemon.signal(SIGHUP)
        try rig.waitUntil(timeout: 60, "the fan-out is under way") { try Self.answered(apns) >= 250 }
        rig.daemon.kill9()
        let atKill = try Self.answered(apns)
        #expect(atKill < 1000, "the kill fell inside the fan-out (\(atKill) answered)")
        try apns.pace(ms: 0)
        // Requests the killed daemon had already written are still answered (then discarded): its
        // connections are the ones opened so far.
        guard case .number(let killedConnections)? = try apns.stats()["serial"] else { throw TestFailure("no serial") }
        try rig.daemon.start()

        try rig.waitUntil(timeout: 120, "every reminder reached its phone") { try Self.delivered(apns).count == 1000 }
        let total = try apns.messages().count
        try rig.holds(for: 2, "nothing more is sent") { try apns.messages().count == total }
        let ok = try apns.messages().filter { $0.status == 200 }
        let pairs = try Self.delivered(apns)
        #expect(Set(pairs.map(\.token)) == tokens, "every phone")
        #expect(Dictionary(grouping: pairs, by: \.token).values.allSatisfy { $0.count == 2 },
                "each phone got its two reminders under two collapse ids, a resend under the first one's")
        let repeats = ok.count - 1000
        #expect(repeats <= Self.inFlight, "\(repeats) sent twice")
        // The repeated ones were the last the killed daemon sent, not older ones.
        let firstRun = ok.filter { $0.connection <= Int(killedConnections) }.sorted { $0.at < $1.at }
        let tail = Set(firstRun.suffix(Self.inFlight).map { "\($0.token) \(Self.collapseId($0.headers))" })
        let counts = Dictionary(grouping: ok) { "\($0.token) \(Self.collapseId($0.headers))" }.mapValues(\.count)
        for (pair, n) in counts where n > 1 {
            #expect(n == 2 && tail.contains(pair), "\(pair) sent \(n) times, not among the last in flight at the kill")
        }
        #expect(counts.values.filter { $0 > 1 }.count == repeats)
        #expect(ok.allSatisfy { $0.error == nil })
        let stats = try apns.stats()
        if case .number(let most)? = stats["maxOpen"] { #expect(most <= 4, "HTTP/2 connections open at once: \(most)") }
        // The daemon learned the service multiplexes: far more than one request per connection in
        // flight (4 is all it keeps to a server not known to speak HTTP/2).
        if case .number(let pending)? = stats["maxPending"] { #expect(pending > 16, "requests in flight at once: \(pending)") } else {
            Issue.record("no maxPending in \(stats)")
        }
        let metrics = try rig.daemon.request(.get, "/metrics").text
        #expect(metrics.contains("hyponatrack_push_pending 0"))
    }

    static func collapseId(_ headers: JSONObject) -> String {
        if case .string(let c)? = headers["apns-collapse-id"] { c } else { "" }
    }

    /// Answers 200 so far.
    static func answered(_ apns: APNsEmulator) throws -> Int {
        guard case .object(let statuses)? = try apns.stats()["statuses"], case .number(let n)? = statuses["200"] else { return 0 }
        return Int(n)
    }

    /// The distinct (token, collapse id) pairs answered 200.
    static func delivered(_ apns: APNsEmulator) throws -> [(token: String, collapseId: String)] {
        var seen: Set<String> = [], out: [(String, String)] = []
        for m in try apns.messages() where m.status == 200 {
            let c = collapseId(m.headers)
            if seen.insert("\(m.token) \(c)").inserted { out.append((m.token, c)) }
        }
        return out
    }
}
