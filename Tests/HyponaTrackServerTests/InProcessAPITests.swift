import Foundation
import HTJSON
import HTTPServer
import Synchronization
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer
@testable import HyponaTrackTestSupport

/// The application driven in-process: request in, response out, no socket bound at all (the
/// application value, not the daemon). These add to the real-HTTP integration tests (which run
/// the built binaries), never replace them.
@Suite struct InProcessAPITests {
    static func errorField(_ json: JSONValue) -> JSONValue? {
        guard case .object(let o) = json, case .object(let e)? = o["error"] else { return nil }
        return e["field"]
    }

    static func errorCode(_ json: JSONValue) -> JSONValue? {
        guard case .object(let o) = json, case .object(let e)? = o["error"] else { return nil }
        return e["code"]
    }

    static func errorMessage(_ json: JSONValue) -> String {
        guard case .object(let o) = json, case .object(let e)? = o["error"], case .string(let m)? = e["message"] else { return "" }
        return m
    }

    @Test func anEnrolledPatientIsListedWithItsRiskClass() throws {
        let h = try InProcessApplication()
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "Europe/Berlin")!,
                                                formatOptions: [.withFullDate])
        let enrolled = h.send(.post, "/v1/patients", body: [
            "studyId": "HT-IP-1", "surgeryDate": .string(today), "timeZone": "Europe/Berlin", "age": 50, "sex": "male",
            "bmi": 27.0, "baselineWeightKg": 80.0, "fluidLimitMl": 1500.0, "baselineReactionTimeMs": 600.0,
        ])
        #expect(enrolled.status == 201, "\(enrolled.json)")
        let list = h.send(.get, "/v1/patients")
        #expect(list.status == 200)
        guard case .array(let patients) = list.json, case .object(let first)? = patients.first else {
            Issue.record("expected a list of patients, got \(list.json)")
            return
        }
        #expect(first["studyId"] == "HT-IP-1")
        guard case .object(let e) = enrolled.json else { return }
        #expect(first["riskClass"] == e["riskClass"])
    }

    @Test func anEnrolmentWithoutATimeZoneTakesTheConfiguredDefault() throws {
        let h = try InProcessApplication { $0.defaultTimeZone = "America/New_York" }
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "America/New_York")!,
                                                formatOptions: [.withFullDate])
        let enrolled = h.send(.post, "/v1/patients", body: [
            "studyId": "HT-TZ-1", "surgeryDate": .string(today), "age": 50, "sex": "male",
            "bmi": 27.0, "baselineWeightKg": 80.0,
        ])
        #expect(enrolled.status == 201, "\(enrolled.json)")
        let shown = h.send(.get, "/v1/patients/HT-TZ-1")
        guard case .object(let o) = shown.json, case .object(let profile)? = o["profile"] else {
            Issue.record("expected the patient, got \(shown.json)")
            return
        }
        #expect(profile["timeZone"] == "America/New_York")
        let explicit = h.send(.post, "/v1/patients", body: [
            "studyId": "HT-TZ-2", "surgeryDate": .string(today), "timeZone": "Europe/Berlin", "age": 50, "sex": "male",
            "bmi": 27.0, "baselineWeightKg": 80.0,
        ])
        #expect(explicit.status == 201)
        guard case .object(let o2) = h.send(.get, "/v1/patients/HT-TZ-2").json, case .object(let p2)? = o2["profile"] else { return }
        #expect(p2["timeZone"] == "Europe/Berlin")
    }

    @Test func aLabThatTurnsTodayRedIsWhatThePatientSees() throws {
        let h = try InProcessApplication()
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        func day(_ offset: Int) -> String {
            ISO8601DateFormatter.string(from: Date().addingTimeInterval(Double(offset) * 86_400), timeZone: berlin,
                                        formatOptions: [.withFullDate])
        }
        let enrolled = h.send(.post, "/v1/patients", body: [
            "studyId": "HT-LAB-1", "surgeryDate": .string(day(-6)), "timeZone": "Europe/Berlin", "age": 50, "sex": "male",
            "bmi": 27.0, "baselineWeightKg": 80.0,
        ])
        guard case .object(let e) = enrolled.json, case .string(let code)? = e["activationCode"] else {
            Issue.record("enrolment failed: \(enrolled.json)")
            return
        }
        let activated = h.send(.post, "/v1/activate", body: ["studyId": "HT-LAB-1", "code": .string(code)], token: "-")
        guard case .object(let a) = activated.json, case .string(let patientToken)? = a["token"] else {
            Issue.record("activation failed: \(activated.json)")
            return
        }
        let submitted = h.send(.put, "/v1/me/days/\(day(0))", body: ["weightMorningKg": 80.0], token: patientToken)
        #expect(submitted.status == 200, "\(submitted.json)")
        func todayLevel() -> JSONValue? {
            guard case .object(let t) = h.send(.get, "/v1/me/today", token: patientToken).json else { return nil }
            return t["level"]
        }
        #expect(todayLevel() == "green")
        let lab = h.send(.post, "/v1/patients/HT-LAB-1/labs", body: ["sodium": 124])
        #expect(lab.status == 201, "\(lab.json)")
        #expect(todayLevel() == "red")
    }

    @Test func aResolutionWithoutANoteNamesTheFieldAndChangesNothing() throws {
        let h = try InProcessApplication()
        // An alert to act on (one that does not exist is not found before its body is looked at).
        let surgery = ISO8601DateFormatter.string(from: Date().addingTimeInterval(-6 * 86_400), timeZone: TimeZone(identifier: "Europe/Berlin")!,
                                                  formatOptions: [.withFullDate])
        #expect(h.send(.post, "/v1/patients", body: ["studyId": "HT-RES-1", "surgeryDate": .string(surgery),
                                                     "timeZone": "Europe/Berlin", "age": 50, "sex": "male", "bmi": 27.0,
                                                     "baselineWeightKg": 80.0]).status == 201)
        #expect(h.send(.post, "/v1/patients/HT-RES-1/labs", body: ["sodium": 124]).status == 201)
        let before = h.send(.get, "/v1/audit/verify")
        let refused = h.send(.post, "/v1/alerts/1/resolution", body: ["sodium": 131])
        #expect(refused.status == 400)
        #expect(Self.errorField(refused.json) == "note")
        let tooLong = h.send(.post, "/v1/alerts/1/acknowledgement", body: ["note": .string(String(repeating: "x", count: 1001))])
        #expect(tooLong.status == 400)
        #expect(Self.errorField(tooLong.json) == "note")
        let after = h.send(.get, "/v1/audit/verify")
        guard case .object(let b) = before.json, case .object(let a) = after.json else {
            Issue.record("audit verify did not answer with an object")
            return
        }
        #expect(b["rowsChecked"] == a["rowsChecked"])
    }

    @Test func aFloodOfHealthProbesIsNotAFloodOfDurableWrites() throws {
        let h = try InProcessApplication()
        let before = h.app.database.writer.statistics.committedTransactions
        for _ in 0..<200 { #expect(h.client.send(.get, "/healthz").status == .ok) }
        // One heartbeat commit per second at most (HeartbeatProbe), not one per probe; the
        // bound leaves room for a slow machine and for anything else the daemon commits.
        #expect(h.app.database.writer.statistics.committedTransactions - before < 20)
    }

    @Test func healthSaysWhetherAnyEscalationTierIsConfigured() throws {
        func configured(_ h: InProcessApplication) -> JSONValue? {
            let r = h.client.send(.get, "/healthz")
            guard r.status == .ok, case .object(let o)? = try? JSONParser.parse(r.body), case .object(let e)? = o["escalation"] else {
                return nil
            }
            return e["configured"]
        }
        #expect(configured(try InProcessApplication()) == false)
        let withLadder = try InProcessApplication { $0.escalation.red = [EscalationLadder.Tier(afterMinutes: 0, hooks: [])] }
        #expect(configured(withLadder) == true)
    }

    @Test func anUnknownAlertIsNotFound() throws {
        let h = try InProcessApplication()
        let r = h.send(.post, "/v1/alerts/99/acknowledgement", body: ["note": "called"])
        #expect(r.status == 404)
        #expect(Self.errorCode(r.json) == "not_found")
    }

    @Test func aWrongMethodIsRefusedWithTheAllowedOnes() throws {
        let h = try InProcessApplication()
        let headers: HTTPHeaders = ["Authorization": "Bearer \(h.adminToken)"]
        let r = h.client.send(.delete, "/v1/alerts", headers: headers)
        #expect(r.status == .methodNotAllowed)
        #expect(r.headers["Allow"] == "GET")
    }

    @Test func aQueryValueOutsideItsChoicesNamesTheParameter() throws {
        let h = try InProcessApplication()
        let r = h.send(.get, "/v1/alerts?open=maybe")
        #expect(r.status == 400)
        #expect(Self.errorField(r.json) == "open")
    }
}

@Suite struct HTTPResponderTests {
    @Test func anAnswerFromAnotherThreadReachesTheWaiter() {
        let responder = HTTPResponder()
        // The other thread answers whenever it runs: before the wait starts (the ready answer is
        // returned) or during it (the waiter is woken); either way the waiter gets that answer.
        Thread.detachNewThread {
            responder.respond(.jsonError(.conflict, code: "conflict", message: "late"))
        }
        #expect(responder.waitForAnswer().status == .conflict)
    }

    @Test func onlyTheFirstAnswerCountsAndTheSecondIsReported() {
        let second = Mutex<HTTPStatus?>(nil)
        let responder = HTTPResponder(onSecondAnswer: { r in second.withLock { $0 = r?.status } })
        responder.respond(.jsonError(.notFound, code: "not_found", message: "first"))
        responder.respond(.jsonError(.conflict, code: "conflict", message: "second"))
        #expect(responder.waitForAnswer().status == .notFound)
        #expect(second.withLock { $0 } == .conflict)
    }

    @Test func anAnswerGivenUnbuiltIsBuiltOnceByTheFirstThreadThatTakesIt() {
        let builds = Mutex(0)
        let responder = HTTPResponder()
        responder.respond(building: {
            builds.withLock { $0 += 1 }
            return .jsonError(.accepted, code: "built", message: "late")
        })
        #expect(builds.withLock { $0 } == 0)
        #expect(responder.waitForAnswer().status == .accepted)
        #expect(responder.waitForAnswer().status == .accepted)
        #expect(builds.withLock { $0 } == 1)
    }

    @Test func aSecondAnswerGivenUnbuiltIsDroppedWithoutBeingBuilt() {
        let builds = Mutex(0)
        let reported = Mutex<[HTTPStatus?]>([])
        let responder = HTTPResponder(onSecondAnswer: { r in reported.withLock { $0.append(r?.status) } })
        responder.respond(.jsonError(.serviceUnavailable, code: "unavailable", message: "stopping"))
        responder.respond(building: {
            builds.withLock { $0 += 1 }
            return .jsonError(.ok, code: "ok", message: "too late")
        })
        #expect(responder.waitForAnswer().status == .serviceUnavailable)
        #expect(builds.withLock { $0 } == 0)
        #expect(reported.withLock { $0 } == [nil])
    }

    @Test func callbacksRegisteredBeforeTheAnswerAllRunOnce() {
        let responder = HTTPResponder()
        let calls = Mutex(0)
        responder.whenAnswered { _ in calls.withLock { $0 += 1 } }
        responder.whenAnswered { _ in calls.withLock { $0 += 1 } }
        #expect(!responder.hasResponded)
        responder.respond(.jsonError(.ok, code: "ok", message: "done"))
        responder.respond(.jsonError(.ok, code: "ok", message: "again"))
        #expect(calls.withLock { $0 } == 2)
    }
}
