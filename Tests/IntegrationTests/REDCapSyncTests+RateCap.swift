import Foundation
import Testing
import HTJSON

/// The rate cap across crashes: `Restart=on-failure` with `RestartSec=5` restarts a crashing
/// daemon within seconds, and each start must not open a fresh minute's worth of requests.
extension REDCapSyncTests {
    /// A daemon that sends one row per request under a cap of `cap` a minute, with `backlog`
    /// baselines queued.
    static func cappedRig(cap: Int, backlog: Int, prefix: String) throws -> SyncRig {
        var options = SyncConfig.Options()
        options.batchSize = 1
        options.maxRequestsPerMinute = cap
        let rig = try SyncRig(options)
        for n in 1...backlog { try enroll(rig, "\(prefix)-\(n)") }
        return rig
    }

    @Test func theRateCapHoldsAcrossKillNineRestarts() throws {
        let rig = try Self.cappedRig(cap: 10, backlog: 30, prefix: "SYNC-LOOP")
        let emu = rig.emulator
        try rig.waitUntil("the minute's 10 requests went out") { try emu.counter("apiRequests") >= 10 }
        for restart in 1...2 {
            rig.daemon.kill9()
            try rig.daemon.start()
            try Self.holds(for: 3, "no request after restart \(restart) within the minute") { try emu.counter("apiRequests") == 10 }
            let s = try rig.status()
            #expect(s["requestsLastMinute"] == 10, "restart \(restart) counts the requests sent before it: \(s)")
        }
        #expect(try emu.counter("maxApiRequestsPerMinute") == 10)
        #expect(rig.daemon.log.contains("redcap requests of the last minute before this start count against the rate cap"))
    }
}
