import Foundation
import Testing
import HTJSON
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// A sodium typed when resolving an alert is a lab value of the day it was taken (docs/product.md,
/// third round, C, and its settled details): stored and evaluated first, in the resolving
/// transaction, then the alert is resolved — so the nurse's own value never opens an alert of
/// its own; a bad time is refused naming `sodiumTime` and changes nothing.
@Suite struct SodiumAtResolveTests {
    static let zone = ZoneRules(identifier: "Europe/Berlin")!

    /// A patient operated five days ago with a red day yesterday (an emergency symptom); its alert's id.
    static func redAlert(_ h: InProcessApplication, _ studyId: String) throws -> Int {
        let today = zone.localDate(atEpochSeconds: Date().timeIntervalSince1970)
        let token = try h.enrollAndActivate(studyId, surgeryDate: today.adding(days: -5).description)
        let day = h.send(.put, "/v1/me/days/\(today.adding(days: -1))", body: ["emergencySymptoms": ["seizure"]], token: token)
        #expect(day.status == 200, "\(day.json)")
        let alerts = h.send(.get, "/v1/alerts?open=true")
        guard case .array(let list) = alerts.json, case .object(let a)? = list.first, case .number(let id)? = a["id"] else {
            throw TestError("no alert: \(alerts.json)")
        }
        return Int(id)
    }

    static func labs(_ h: InProcessApplication) throws -> [String] {
        try h.app.database.read { db in
            try db.query("SELECT date, sodium, entered_by FROM lab_values ORDER BY id").map {
                "\(try $0.string(0)) \(try $0.double(1)) \(try $0.string(2))"
            }
        }
    }

    @Test func theSodiumIsStoredAsALabValueOfItsDayAndOpensNoAlertOfItsOwn() throws {
        let h = try InProcessApplication()
        let id = try Self.redAlert(h, "SR-1")
        let yesterday = Self.zone.localDate(atEpochSeconds: Date().timeIntervalSince1970).adding(days: -1)
        let resolved = h.send(.post, "/v1/alerts/\(id)/resolution",
                              body: ["note": "lab drawn at the GP", "sodium": 126,
                                     "sodiumTime": JSONValue.string(yesterday.description + "T18:30:00+01:00")])
        #expect(resolved.status == 200, "\(resolved.json)")
        guard case .object(let alert) = resolved.json else { Issue.record("\(resolved.json)"); return }
        #expect(alert["state"] == JSONValue.string("resolved") && alert["resolveSodium"] == JSONValue.number(126))
        #expect(try Self.labs(h) == ["\(yesterday) 126.0 staff:\(StaffDirectory.bootstrapAdminName)"], "a lab value of the day it was taken")
        let all = h.send(.get, "/v1/alerts")
        guard case .array(let list) = all.json else { Issue.record("\(all.json)"); return }
        #expect(list.count == 1, "a sodium of 126 (red) typed at the resolve opens no alert of its own: \(all.json)")
        let evaluated = try h.app.database.read { db in
            try db.scalar("SELECT COUNT(*) FROM evaluations WHERE cause = 'lab' AND date = ?", [yesterday.description], as: Int.self)
        }
        #expect(evaluated == 1, "evaluated like any lab value")
    }

    @Test func aResolveWithoutATimeTakesNowAndOneWithABadTimeChangesNothing() throws {
        let h = try InProcessApplication()
        let id = try Self.redAlert(h, "SR-2")
        for (time, message) in [("2026-13-40T25:99:00+01:00", "expected an ISO 8601"), ("2099-01-01T10:00:00+01:00", "future")] {
            let refused = h.send(.post, "/v1/alerts/\(id)/resolution", body: ["note": "n", "sodium": 131, "sodiumTime": JSONValue.string(time)])
            #expect(refused.status == 400 && InProcessAPITests.errorField(refused.json) == JSONValue.string("sodiumTime"), "\(refused.json)")
            #expect(InProcessAPITests.errorMessage(refused.json).contains(message), "\(refused.json)")
        }
        #expect(try Self.labs(h).isEmpty, "nothing stored")
        #expect(h.send(.get, "/v1/alerts?open=true").json != .array([]), "still open")
        let resolved = h.send(.post, "/v1/alerts/\(id)/resolution", body: ["note": "n", "sodium": 131])
        #expect(resolved.status == 200, "\(resolved.json)")
        let today = Self.zone.localDate(atEpochSeconds: Date().timeIntervalSince1970)
        #expect(try Self.labs(h).map { $0.split(separator: " ").first.map(String.init) ?? "" } == [today.description], "taken now")
    }
}
