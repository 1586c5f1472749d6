import Foundation
import Synchronization
import Testing
import HTJSON

/// The starvation: loops of `GET /v1/audit/verify` over a long trail used to take every
/// reader connection, and a patient's request waited behind them at its authentication. Long
/// reads now have a pool of their own. The precise figures are measured by
/// `scripts/bench-audit-verify`; here every patient request must simply be answered, correctly
/// and well within a generous bound, while the verifies keep running.
@Suite struct AuditVerifyLoadTests {
    static let verifyLoops = 16
    static let extraRows = 5000
    static let patientRequests = 25

    /// Counts per loop, written by the loop threads.
    final class Tally: Sendable {
        let intact = Mutex(0)
        let failures = Mutex<[String]>([])
        let stop = Atomic(false)
    }

    @Test func patientRequestsAreAnsweredWhileSixteenVerifyLoopsRun() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("htvl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let d = try TestDaemon(dataDir: root.appendingPathComponent("data"))
        let token = try Study.enrollAndActivate(d, "LOAD-1")
        let date = Study.date(0)
        #expect(try d.request(.put, "/v1/me/days/\(date)", token: token, body: ["weightMorningKg": 81.2]).status == 200)
        d.stop()
        let trail = AuditTrailFile(dataDir: d.dataDir)
        try trail.appendRows(Self.extraRows, key: try AuditTrailFile.key(file: root.appendingPathComponent("audit-key").path))
        try d.start()
        let single = try d.request(.get, "/v1/audit/verify", token: d.adminToken)
        #expect(single["intact"] == true && (Hooks.int(single["rowsChecked"]) ?? 0) > Self.extraRows, "\(single.text)")

        let tally = Tally()
        let admin = d.adminToken
        let loops = (0..<Self.verifyLoops).map { _ in
            Thread {
                while !tally.stop.load(ordering: .relaxed) {
                    do {
                        let r = try d.request(.get, "/v1/audit/verify", token: admin)
                        if r.status == 200, Hooks.bool(Hooks.object(r.json)?["intact"]) == true {
                            tally.intact.withLock { $0 += 1 }
                        } else {
                            tally.failures.withLock { $0.append("\(r.status) \(r.text.prefix(200))") }
                        }
                    } catch {
                        tally.failures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        loops.forEach { $0.start() }
        defer { tally.stop.store(true, ordering: .relaxed) }
        // Let the loops fill the long-read pool before the patient starts.
        try waitUntil(timeout: 60) { tally.intact.withLock { $0 } >= Self.verifyLoops / 4 }

        var seconds: [Double] = []
        for _ in 0..<Self.patientRequests {
            let started = Date()
            let today = try d.request(.get, "/v1/me/today", token: token)
            seconds.append(Date().timeIntervalSince(started))
            #expect(today.status == 200, "\(today.text)")
            #expect(Hooks.string(today["date"]) == date, "\(today.text)")
        }
        tally.stop.store(true, ordering: .relaxed)
        let done = poll(timeout: 60) { loops.allSatisfy(\.isFinished) }
        seconds.sort()
        let summary = String(format: "patient GET /v1/me/today with %d verify loops over %d rows: p50 %.0f ms, max %.0f ms; %d verifies answered",
                             Self.verifyLoops, Self.extraRows, seconds[seconds.count / 2] * 1000, seconds.last! * 1000,
                             tally.intact.withLock { $0 })
        print(summary)
        #expect(seconds.last! < 5, "\(summary)")
        #expect(done && tally.failures.withLock { $0 }.isEmpty, "\(tally.failures.withLock { $0.prefix(3) })")
    }
}
