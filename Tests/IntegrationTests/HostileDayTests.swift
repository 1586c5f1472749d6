import Foundation
import Synchronization
import Testing
import HTJSON

/// One patient's runaway app against the real daemon: a day's lists stop at
/// `limits.itemsPerList` (default 64) with 409 `limit_reached`, nothing of a refused request is
/// stored, other patients are answered as usual, and numbers that would silently change are
/// refused naming the field (docs/product.md, "Limits under hostile traffic").
@Suite struct HostileDayTests {
    static let day = Study.date(-1)
    static let put = "/v1/me/days/\(day)"

    static func symptoms(_ ids: some Sequence<Int>, prefix: String = "s", vas: Int = 9) -> JSONValue {
        .array(ids.map { Study.symptom("\(prefix)\($0)", day, vas: vas) })
    }

    static func storedDay(_ d: TestDaemon, _ token: String) throws -> JSONObject? {
        let r = try d.request(.get, "/v1/me/days?from=\(day)&to=\(day)", token: token)
        guard case .array(let days) = r.json, case .object(let first)? = days.first, case .object(let data)? = first["data"] else {
            return nil
        }
        return data
    }

    static func count(_ data: JSONObject?, _ list: String) -> Int {
        if case .array(let items)? = data?[list] { return items.count } else { return 0 }
    }

    static func auditRows(_ d: TestDaemon) throws -> JSONValue? {
        try d.request(.get, "/v1/audit/verify", token: d.adminToken)["rowsChecked"]
    }

    @Test func the65thSymptomEntryOfADayIsRefusedAndNothingOfThatRequestIsStored() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "HOSTILE-1")
        let full = try d.request(.put, Self.put, token: token, body: ["symptoms": Self.symptoms(1...64)])
        #expect(full.status == 200, "\(full.text)")
        let rows = try Self.auditRows(d)
        let refused = try d.request(.put, Self.put, token: token, body: ["urineSG": 1.010, "symptoms": Self.symptoms([65])])
        #expect(refused.status == 409, "\(refused.text)")
        #expect(refused.errorCode == "limit_reached")
        #expect(refused.errorField == "symptoms")
        let data = try Self.storedDay(d, token)
        #expect(Self.count(data, "symptoms") == 64)
        #expect(data?["urineSG"] == .null, "a scalar of the refused request was stored")
        #expect(try Self.auditRows(d) == rows, "the refused write left an audit row")
        // Ids already stored are corrections, accepted at the cap.
        let resent = try d.request(.put, Self.put, token: token, body: ["symptoms": Self.symptoms([1, 64], vas: 4)])
        #expect(resent.status == 200, "\(resent.text)")
        #expect(Self.count(try Self.storedDay(d, token), "symptoms") == 64)
    }

    @Test func anotherPatientIsAnsweredNormallyWhileTheFirstIsRefused() throws {
        let d = try TestDaemon()
        let hostile = try Study.enrollAndActivate(d, "HOSTILE-2")
        let other = try Study.enrollAndActivate(d, "CALM-2")
        #expect(try d.request(.put, Self.put, token: hostile, body: ["symptoms": Self.symptoms(1...64)]).status == 200)
        let hostileStatuses = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let flood = Thread {
            defer { done.signal() }
            for round in 0..<30 {
                // Each request would add 40 new entries to the full list.
                let status = (try? d.request(.put, Self.put, token: hostile,
                                             body: ["symptoms": Self.symptoms(0..<40, prefix: "r\(round)-")]).status) ?? -1
                hostileStatuses.withLock { $0.append(status) }
            }
        }
        flood.start()
        var otherStatuses: [Int] = []
        for i in 0..<10 {
            let r = try d.request(.put, Self.put, token: other, body: ["weightMorningKg": .number(80 + Double(i) / 10),
                                                                   "symptoms": Self.symptoms([i], prefix: "calm")])
            otherStatuses.append(r.status)
            #expect(r["level"] != nil, "\(r.text)")
        }
        done.wait()
        #expect(otherStatuses == Array(repeating: 200, count: 10))
        #expect(hostileStatuses.withLock { $0 } == Array(repeating: 409, count: 30))
        #expect(Self.count(try Self.storedDay(d, other), "symptoms") == 10)
        #expect(Self.count(try Self.storedDay(d, hostile), "symptoms") == 64)
    }

    @Test func aNumberThatWouldReadAsZeroIsAnInvalidValueNamingTheFieldAndNothingIsStored() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "HOSTILE-3")
        let rows = try Self.auditRows(d)
        let body = #"{"steps": 1200, "symptoms": [{"id": "u1", "time": "\#(Study.time(Self.day))", "slot": "morning", "nausea": 1e-400, "headache": 0, "fatigue": 0, "confusion": 0, "muscleCramps": 0, "vas": 3}]}"#
        let r = try d.request(.put, Self.put, token: token, raw: Array(body.utf8))
        #expect(r.status == 400, "\(r.text)")
        #expect(r.errorCode == "invalid_value")
        #expect(r.errorField == "symptoms[0].nausea")
        #expect(r.text.contains("1e-400 is out of range"), "\(r.text)")
        #expect(try Self.storedDay(d, token) == nil)
        #expect(try Self.auditRows(d) == rows)
        // Zero written as zero is still zero.
        let zero = try d.request(.put, Self.put, token: token, raw: Array(#"{"fluidIntakeMl": 0e-400, "vomitingEpisodes": -0}"#.utf8))
        #expect(zero.status == 200, "\(zero.text)")
        #expect(try Self.storedDay(d, token)?["fluidIntakeMl"] == 0)
    }

    @Test func theCLIPrintsTheRefusalOfALabBeyondTheCapAndExits1() throws {
        let config = try ConfigDirectory(server: #"{"limits": {"itemsPerList": 2}}"#)
        let d = try TestDaemon(configFile: config.serverFile)
        _ = try Study.enrollAndActivate(d, "HOSTILE-4")
        let time = Study.time(Study.date(-1), "09:00")
        for _ in 0..<2 {
            let ok = try CLIRunner.run(["lab", "HOSTILE-4", "--sodium", "136", "--time", time], server: d.baseURL, token: d.adminToken)
            #expect(ok.status == 0, "\(ok.stderr)")
        }
        let refused = try CLIRunner.run(["lab", "HOSTILE-4", "--sodium", "136", "--time", time], server: d.baseURL, token: d.adminToken)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("labSodium: a day holds at most 2 labSodium items"), "\(refused.stderr)")
        #expect(refused.stderr.contains("(limit_reached)"), "\(refused.stderr)")
    }
}
