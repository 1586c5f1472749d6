import Foundation
import Synchronization
import Testing
import HTJSON

/// The issue's starvation: loops of `GET /v1/audit/verify` over a long trail used to take every
/// reader connection, and a patient's request waited behind them at its authentication; then,
/// with long reads on two connections of their own, the verifies waiting for those took every
/// handler thread (`http.threads`) and the patient queued for a thread. Now a long read beyond
/// the two running and two waiting is refused at once, 503 `busy` with Retry-After. The precise
/// figures are measured by `scripts/bench-audit-verify`; here, while more verifies are asked
/// for than the gate admits, some must be refused as busy, every other must verify, and every
/// patient request must be answered, correctly.
@Suite struct AuditVerifyLoadTests {
    /// Twice the gate's four places at the default 16 threads, so refusals are certain.
    static let verifyLoops = 8
    static let extraRows = 5000
    static let patientRequests = 20

    /// Counts per loop, written by the loop threads.
    final class Tally: Sendable {
        let intact = Mutex(0)
        let busy = Mutex(0)
        let failures = Mutex<[String]>([])
        let stop = Atomic(false)
    }

    @Test func verifiesBeyondTheLongReadGateAreRefusedAsBusyAndThePatientIsServed() throws {
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
                        } else if r.status == 503, r.errorCode == "busy", r.headers["retry-after"] == "2" {
                            tally.busy.withLock { $0 += 1 }
                        } else {
                            tally.failures.withLock { $0.append("\(r.status) \(r.headers["retry-after"] ?? "-") \(r.text.prefix(200))") }
                        }
                    } catch {
                        tally.failures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        loops.forEach { $0.start() }
        defer { tally.stop.store(true, ordering: .relaxed) }
        // The gate is full once verifies are being refused; before the fix none ever was.
        try waitUntil(timeout: 60) { tally.intact.withLock { $0 } >= 1 && tally.busy.withLock { $0 } >= 1 }

        let busyBefore = tally.busy.withLock { $0 }
        var seconds: [Double] = []
        for n in 0..<Self.patientRequests {
            let started = Date()
            if n % 2 == 0 {
                let today = try d.request(.get, "/v1/me/today", token: token)
                #expect(today.status == 200, "\(today.text)")
                #expect(Hooks.string(today["date"]) == date, "\(today.text)")
            } else {
                let put = try d.request(.put, "/v1/me/days/\(date)", token: token, body: ["fluidIntakeMl": .number(Double(1000 + n))])
                #expect(put.status == 200, "\(put.text)")
            }
            seconds.append(Date().timeIntervalSince(started))
        }
        let busyDuring = tally.busy.withLock { $0 } - busyBefore
        tally.stop.store(true, ordering: .relaxed)
        let done = poll(timeout: 60) { loops.allSatisfy(\.isFinished) }
        #expect(busyDuring >= 1, "the verifies still filled the gate while the patient was served")
        seconds.sort()
        let summary = String(format: "patient GET /v1/me/today and PUT /v1/me/days with %d verify loops over %d rows: p50 %.0f ms, max %.0f ms; %d verifies answered, %d refused as busy",
                             Self.verifyLoops, Self.extraRows, seconds[seconds.count / 2] * 1000, seconds.last! * 1000,
                             tally.intact.withLock { $0 }, tally.busy.withLock { $0 })
        print(summary)
        #expect(done && tally.failures.withLock { $0 }.isEmpty, "\(tally.failures.withLock { $0.prefix(3) })")

        // Every refusal is counted, and nothing is left holding a place.
        let metrics = PrometheusText.parse(try d.request(.get, "/metrics").text)
        #expect(metrics.samples["hyponatrack_admission_refused_total{work=\"long_read\"}"] == Double(tally.busy.withLock { $0 }))
        #expect(metrics.samples["hyponatrack_admission_in_use{work=\"long_read\"}"] == 0)
    }
}
