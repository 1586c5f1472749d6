import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The long reads' gate in the running daemon, driven in-process: with its places held, a
/// long read is refused at once as busy (the API's JSON, the console's error page, both with
/// Retry-After) while a patient's requests and every authentication go on; once a place is
/// free the same long read is answered. With `http.threads` 4 the gate has one place (one
/// running, none waiting), which the test holds itself, so nothing depends on timing.
@Suite struct LongReadAdmissionTests {
    /// Holds every place of `gate` until `release()`: one body running, the rest waiting.
    final class HeldGate: Sendable {
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let places: Int

        init(_ gate: AdmissionGate) {
            places = gate.concurrent + gate.waiting
            let running = DispatchSemaphore(value: 0)
            for _ in 0..<places {
                DispatchQueue.global().async(group: done) { [release] in
                    _ = gate.run { running.signal(); release.wait() }
                }
            }
            for _ in 0..<gate.concurrent { _ = running.wait(timeout: .now() + 10) }
        }

        func releaseAll() -> Bool {
            for _ in 0..<places { release.signal() }
            return done.wait(timeout: .now() + 10) == .success
        }
    }

    @Test func aLongReadBeyondTheGateIsRefusedAsBusyWhileThePatientIsServed() throws {
        let h = try InProcessApplication { $0.http.threads = 4 }
        let gate = h.app.database.longReadAdmission
        #expect(gate.concurrent == 1 && gate.waiting == 0, "a quarter of four handler threads")
        func day(_ offset: Int) -> String {
            ISO8601DateFormatter.string(from: Date().addingTimeInterval(Double(offset) * 86_400),
                                        timeZone: TimeZone(identifier: "Europe/Berlin")!, formatOptions: [.withFullDate])
        }
        let today = day(0)
        let patient = try h.enrollAndActivate("HT-LR-1", surgeryDate: day(-3))

        let held = HeldGate(gate)
        #expect(gate.inUse == 1)
        let refused = h.client.send(.get, "/v1/audit/verify", headers: ["Authorization": "Bearer \(h.adminToken)"])
        let body = (try? JSONParser.parse(refused.body)) ?? .null
        #expect(refused.status == .serviceUnavailable, "\(body)")
        #expect(refused.headers["retry-after"] == String(AdmissionGate.retryAfterSeconds))
        #expect(InProcessAPITests.errorCode(body) == "busy", "\(body)")
        #expect(h.send(.get, "/v1/export/days.csv").status == 503, "exports share the gate")
        #expect(h.send(.get, "/v1/me/today", token: patient).status == 200, "the patient is served meanwhile")
        let submitted = h.send(.put, "/v1/me/days/\(today)", body: ["weightMorningKg": 80.5], token: patient)
        #expect(submitted.status == 200, "\(submitted.json)")
        #expect(gate.refused == 2 && gate.inUse == 1, "refused at once, holding no place")

        #expect(held.releaseAll())
        let verified = h.send(.get, "/v1/audit/verify")
        guard case .object(let v) = verified.json else { Issue.record("\(verified.json)"); return }
        #expect(verified.status == 200 && v["intact"] == true, "with the place free the same long read is answered")
        #expect(gate.inUse == 0)
    }

    @Test func aConsolePageWhoseLongReadIsRefusedIsTheBusyErrorPage() throws {
        let h = try InProcessApplication { $0.http.threads = 4 }
        let web = h.console
        let headers = try h.consoleSession()

        let held = HeldGate(h.app.database.longReadAdmission)
        let refused = web.send(.get, "/console/statistics", headers: headers)
        let page = String(decoding: refused.body, as: UTF8.self)
        #expect(refused.status == .serviceUnavailable && refused.headers["retry-after"] == String(AdmissionGate.retryAfterSeconds))
        #expect(page.contains("<html") && page.contains("too many long reads at once"), "the console's error page: \(page.prefix(400))")
        #expect(web.send(.get, "/console/", headers: headers).status == .ok, "the board reads no long read")

        #expect(held.releaseAll())
        #expect(web.send(.get, "/console/statistics", headers: headers).status == .ok)
    }
}
