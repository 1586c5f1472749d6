import Foundation
import Synchronization
import Testing
import HTJSON

/// Nothing acknowledged is ever lost or duplicated: concurrent submissions while the daemon is
/// killed with SIGKILL at random moments and restarted; afterwards every submission that got a
/// 2xx is stored exactly once and the audit chain verifies.
@Suite struct CrashRecoveryTests {
    @Test func everyAcknowledgedSubmissionSurvivesKillNine() throws {
        let d = try TestDaemon()
        let patients = 8, attemptsPerPatient = 150
        let day = Study.date(-1)
        var tokens: [String] = []
        for i in 0..<patients { tokens.append(try Study.enrollAndActivate(d, "CRASH-\(i)")) }
        let acknowledged = Mutex<[Int: Set<String>]>([:])
        let finished = Mutex(0)
        for (i, token) in tokens.enumerated() {
            let thread = Thread {
                for n in 0..<attemptsPerPatient {
                    let id = "c\(i)-\(n)"
                    let body: JSONValue = ["weightMorningKg": .number(80 + Double(n % 10) / 10),
                                           "symptoms": [Study.symptom(id, day, vas: 5 + n % 5)]]
                    if let r = try? d.request(.put, "/v1/me/days/\(day)", token: token, body: body), r.status == 200 {
                        acknowledged.withLock { _ = $0[i, default: []].insert(id) }
                    } else {
                        usleep(20_000)   // the daemon is down or restarting
                    }
                }
                finished.withLock { $0 += 1 }
            }
            thread.start()
        }
        // Kill at random moments while the writers run, restarting each time.
        var kills = 0
        var generator = SystemRandomNumberGenerator()
        while finished.withLock({ $0 }) < patients && kills < 4 {
            usleep(UInt32.random(in: 150_000...600_000, using: &generator))
            d.kill9()
            kills += 1
            try d.start()
        }
        try waitUntil(timeout: 120) { finished.withLock { $0 } == patients }
        #expect(kills >= 2, "the writers finished before the daemon could be killed twice")

        // Restart once more so the check reads what a recovered daemon serves.
        d.kill9()
        try d.start()
        let acked = acknowledged.withLock { $0 }
        var total = 0
        for (i, token) in tokens.enumerated() {
            let r = try d.request(.get, "/v1/me/days?from=\(day)&to=\(day)", token: token)
            guard case .array(let days) = r.json, case .object(let first)? = days.first, case .object(let data)? = first["data"],
                  case .array(let symptoms)? = data["symptoms"] else {
                #expect(acked[i, default: []].isEmpty, "patient \(i): acknowledged data missing entirely")
                continue
            }
            var ids: [String] = []
            for s in symptoms { if case .object(let o) = s, case .string(let id)? = o["id"] { ids.append(id) } }
            #expect(Set(ids).count == ids.count, "patient \(i): an item is stored twice")
            let missing = acked[i, default: []].subtracting(ids)
            #expect(missing.isEmpty, "patient \(i): acknowledged but lost: \(missing.sorted())")
            total += acked[i, default: []].count
        }
        #expect(total > 0)
        print("crash test: \(kills + 1) SIGKILLs, \(total) acknowledged submissions, all stored exactly once")
        let verify = try d.request(.get, "/v1/audit/verify", token: d.adminToken)
        #expect(verify["intact"] == true, "\(verify.text)")
    }
}
