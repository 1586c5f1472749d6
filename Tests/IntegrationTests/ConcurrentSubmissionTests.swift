import Foundation
import Synchronization
import Testing
import HTJSON

/// Submissions are worked out on a read snapshot and only checked and stored by the single
/// writer (`SubmissionPlan`); when several arrive for the same patient at once, every one but
/// the first finds the patient's revision moved and is worked out again under the write lock.
/// Nothing may be lost or merged from stale data.
@Suite struct ConcurrentSubmissionTests {
    @Test func simultaneousSubmissionsForOneDayAllLandAndEachIsEvaluated() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "CONC-1")
        let day = Study.date(-1)
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        // 8 clients × 6 submissions, each adding its own symptom entry and setting a scalar.
        for client in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                for n in 0..<6 {
                    let body: JSONValue = ["fluidIntakeMl": .int(1000 + client * 10 + n),
                                           "symptoms": [Study.symptom("c\(client)-\(n)", day, nausea: client % 3)]]
                    do {
                        let r = try d.request(.put, "/v1/me/days/\(day)", token: token, body: body)
                        if r.status != 200 { failures.withLock { $0.append("\(r.status) \(r.text)") } }
                    } catch { failures.withLock { $0.append("\(error)") } }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let stored = try d.request(.get, "/v1/me/days?from=\(day)&to=\(day)", token: token)
        guard case .array(let days) = stored.json, case .object(let first)? = days.first, case .object(let data)? = first["data"],
              case .array(let symptoms)? = data["symptoms"] else {
            Issue.record("no day: \(stored.text)"); return
        }
        #expect(symptoms.count == 48)
        // One day.submit audit row per acknowledged submission, naming the evaluation it caused
        // (its own row no longer: the submission's row carries it).
        let audit = try d.request(.get, "/v1/audit?subject=CONC-1&limit=1000", token: d.adminToken)
        guard case .array(let entries) = audit.json else { Issue.record("no audit: \(audit.text)"); return }
        let submits = entries.compactMap { entry -> JSONObject? in
            guard case .object(let o) = entry, o["action"] == .string("day.submit") else { return nil }
            return o
        }
        #expect(submits.count == 48)
        #expect(!entries.contains { if case .object(let o) = $0 { o["action"] == .string("evaluation.record") } else { false } })
        var evaluationIds = Set<Double>()
        for entry in submits {
            guard case .object(let details)? = entry["details"], case .array(let evaluations)? = details["evaluations"],
                  evaluations.count == 1, case .object(let e) = evaluations[0], case .number(let id)? = e["evaluationId"],
                  case .string? = e["rulesVersion"], case .string? = e["level"], e["date"] == .string(day) else {
                Issue.record("a day.submit row without its evaluation: \(entry)"); continue
            }
            evaluationIds.insert(id)
        }
        #expect(evaluationIds.count == 48)
    }
}
