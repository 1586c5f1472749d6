import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackConfigFile
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// `limits.itemsPerList`: a write that would take a day's list past the cap is refused with 409
/// `limit_reached` naming the list, and nothing of it is stored (docs/product.md, "Limits under
/// hostile traffic"). In-process, with a cap of 3 so each case stays small.
@Suite struct ItemLimitTests {
    typealias Harness = InProcessApplication

    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static func date(_ offset: Int) -> String {
        ISO8601DateFormatter.string(from: Date().addingTimeInterval(Double(offset) * 86_400), timeZone: berlin,
                                    formatOptions: [.withFullDate])
    }
    static let day = date(-1)
    static var time: String {
        let offset = berlin.secondsFromGMT(for: Date().addingTimeInterval(-86_400)) / 60
        return "\(day)T08:00:00" + String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60)
    }

    static func symptom(_ id: String, vas: Int = 8) -> JSONValue {
        ["id": .string(id), "time": .string(time), "slot": "morning", "nausea": 0, "headache": 0, "fatigue": 0,
         "confusion": 0, "muscleCramps": 0, "vas": .int(vas)]
    }

    static func tapping(_ id: String) -> JSONValue { ["id": .string(id), "time": .string(time), "taps": 40, "durationSeconds": 10] }

    /// A harness with the cap at 3 and an activated patient; returns the patient token.
    static func patient(_ h: Harness, _ studyId: String) throws -> String {
        try h.enrollAndActivate(studyId, surgeryDate: date(-6))
    }

    /// The stored day's data as the patient reads it back.
    static func stored(_ h: Harness, _ token: String) -> JSONObject? {
        guard case .array(let days) = h.send(.get, "/v1/me/days?from=\(day)&to=\(day)", token: token).json,
              case .object(let first)? = days.first, case .object(let data)? = first["data"] else { return nil }
        return data
    }

    static func ids(_ data: JSONObject?, _ list: String) -> [String] {
        guard case .array(let items)? = data?[list] else { return [] }
        return items.compactMap { if case .object(let o) = $0, case .string(let id)? = o["id"] { return id } else { return nil } }
    }

    static func auditRows(_ h: Harness) -> JSONValue? {
        guard case .object(let o) = h.send(.get, "/v1/audit/verify").json else { return nil }
        return o["rowsChecked"]
    }

    @Test func aWriteThatWouldPassTheCapIsRefusedNamingTheListAndStoresNothing() throws {
        let h = try Harness { $0.limits.itemsPerList = 3 }
        let token = try Self.patient(h, "LIM-1")
        let put = "/v1/me/days/\(Self.day)"
        #expect(h.send(.put, put, body: ["symptoms": .array(["a", "b", "c"].map { Self.symptom($0) })], token: token).status == 200)
        let rows = Self.auditRows(h)
        // A correction of "a", a scalar and one new item: the new item passes the cap, so none of it is kept.
        let refused = h.send(.put, put, body: ["weightMorningKg": 81.0, "symptoms": [Self.symptom("a", vas: 2), Self.symptom("d")]],
                             token: token)
        #expect(refused.status == 409)
        #expect(InProcessAPITests.errorCode(refused.json) == "limit_reached")
        #expect(InProcessAPITests.errorField(refused.json) == "symptoms")
        let data = Self.stored(h, token)
        #expect(Self.ids(data, "symptoms") == ["a", "b", "c"])
        #expect(data?["weightMorningKg"] == .null)
        if case .array(let items)? = data?["symptoms"], case .object(let a)? = items.first { #expect(a["vas"] == 8) }
        #expect(Self.auditRows(h) == rows, "the refused write left an audit row")
        // Re-sending stored ids at the cap is an update.
        let update = h.send(.put, put, body: ["symptoms": [Self.symptom("a", vas: 2), Self.symptom("c")]], token: token)
        #expect(update.status == 200, "\(update.json)")
    }

    @Test func theFirstListPastTheCapIsNamedWhicheverItIs() throws {
        let h = try Harness { $0.limits.itemsPerList = 3 }
        let token = try Self.patient(h, "LIM-2")
        let r = h.send(.put, "/v1/me/days/\(Self.day)",
                       body: ["symptoms": [Self.symptom("s")], "tappingTests": .array((1...4).map { Self.tapping("t\($0)") })],
                       token: token)
        #expect(r.status == 409)
        #expect(InProcessAPITests.errorField(r.json) == "tappingTests")
        #expect(Self.stored(h, token) == nil, "a refused first write created the day")
    }

    @Test func itemsDeletedByStaffDoNotCount() throws {
        let h = try Harness { $0.limits.itemsPerList = 3 }
        let token = try Self.patient(h, "LIM-3")
        let put = "/v1/me/days/\(Self.day)"
        #expect(h.send(.put, put, body: ["symptoms": .array(["a", "b", "c"].map { Self.symptom($0) })], token: token).status == 200)
        let deleted = h.send(.post, "/v1/patients/LIM-3/days/\(Self.day)/symptoms/b/deletion", body: ["reason": "entered twice"])
        #expect(deleted.status == 200, "\(deleted.json)")
        // The deleted id re-sent is dropped (not brought back, not counted); a new one fills the freed place.
        let r = h.send(.put, put, body: ["symptoms": [Self.symptom("b"), Self.symptom("d")]], token: token)
        #expect(r.status == 200, "\(r.json)")
        #expect(Self.ids(Self.stored(h, token), "symptoms") == ["a", "c", "d"])
        #expect(h.send(.put, put, body: ["symptoms": [Self.symptom("e")]], token: token).status == 409)
    }

    @Test func aLabValueBeyondTheCapIsRefusedUntilOneIsDeleted() throws {
        let h = try Harness { $0.limits.itemsPerList = 3 }
        _ = try Self.patient(h, "LIM-4")
        let lab: JSONValue = ["sodium": 135, "time": .string(Self.time)]
        var labIds: [JSONValue] = []
        for _ in 0..<3 {
            let r = h.send(.post, "/v1/patients/LIM-4/labs", body: lab)
            #expect(r.status == 201, "\(r.json)")
            if case .object(let o) = r.json, let id = o["labId"] { labIds.append(id) }
        }
        let refused = h.send(.post, "/v1/patients/LIM-4/labs", body: lab)
        #expect(refused.status == 409 && InProcessAPITests.errorField(refused.json) == "labSodium", "\(refused.json)")
        guard case .number(let first)? = labIds.first else { Issue.record("no lab id"); return }
        #expect(h.send(.post, "/v1/patients/LIM-4/labs/\(Int(first))/deletion", body: ["reason": "wrong patient"]).status == 200)
        #expect(h.send(.post, "/v1/patients/LIM-4/labs", body: lab).status == 201)
    }

    @Test func aNumberThatUnderflowsToZeroIsAnInvalidValueNamingTheField() throws {
        let h = try Harness()
        let token = try Self.patient(h, "LIM-5")
        var headers: HTTPHeaders = ["Authorization": "Bearer \(token)"]
        headers.add(name: "Content-Type", value: "application/json")
        let r = h.client.send(.put, "/v1/me/days/\(Self.day)", headers: headers, body: #"{"steps": 1200, "fluidIntakeMl": 1e-400}"#)
        let json = (try? JSONParser.parse(r.body)) ?? .null
        #expect(r.status.rawValue == 400)
        #expect(InProcessAPITests.errorCode(json) == "invalid_value")
        #expect(InProcessAPITests.errorField(json) == "fluidIntakeMl")
        #expect(Self.stored(h, token) == nil)
    }
}

/// `limits` in `hyponatrack.json`.
@Suite struct LimitsConfigurationTests {
    static func parse(_ json: JSONValue) throws(FieldError) -> ServerConfiguration {
        try ServerConfiguration.parse(json, directory: URL(fileURLWithPath: "/tmp"), file: nil)
    }

    @Test func itemsPerListDefaultsTo64AndCanBeSet() throws {
        #expect(try Self.parse([:]).limits.itemsPerList == 64)
        #expect(try Self.parse(["limits": ["itemsPerList": 10]]).limits.itemsPerList == 10)
    }

    @Test(arguments: [0, 10_001])
    func anItemsPerListOutsideItsRangeIsRefusedNamingTheKey(value: Int) {
        #expect { try Self.parse(["limits": ["itemsPerList": .int(value)]]) } throws: { error in
            (error as? FieldError)?.field == "limits.itemsPerList"
        }
    }

    @Test func anUnknownLimitIsRefusedNamingTheKey() {
        #expect(throws: FieldError(.unknownField, field: "limits.itemsPerDay", "unknown field")) {
            try Self.parse(["limits": ["itemsPerDay": 10]])
        }
    }
}
