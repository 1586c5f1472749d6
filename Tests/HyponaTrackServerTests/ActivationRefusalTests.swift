import Foundation
import HTJSON
import HTTPServer
import SQLite
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackConfigFile
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Refused activations counted, not written one row each; the per-address bucket in front of
/// `POST /v1/activate`; patient token lifetimes. In process, on a clock the test sets
/// (2026-03-09 09:00 in Berlin), through the daemon's API handler.
@Suite struct ActivationRefusalTests {
    typealias Harness = InProcessApplication

    static let now = Berlin.at("2026-03-09", "09:00")

    struct Answer {
        let status: Int
        let json: JSONValue
        let retryAfter: String?
        var code: JSONValue? { InProcessAPITests.errorCode(json) }
    }

    static func activate(_ h: Harness, _ studyId: String, _ code: String, from ip: String) -> Answer {
        let r = h.client.send(.post, "/v1/activate", headers: ["Content-Type": "application/json"],
                              body: JSONSerializer.string(["studyId": .string(studyId), "code": .string(code)]), clientAddress: ip)
        return Answer(status: r.status.rawValue, json: (try? JSONParser.parse(r.body)) ?? .null, retryAfter: r.headers["Retry-After"])
    }

    /// Enrolls `studyId` (surgery 2026-03-02) and returns its activation code.
    static func enroll(_ h: Harness, _ studyId: String) throws -> String {
        let r = h.send(.post, "/v1/patients", body: Simulation.profile(studyId, surgery: "2026-03-02", []))
        guard r.status == 201, case .object(let o) = r.json, case .string(let code)? = o["activationCode"] else {
            throw EnrolmentFailed(answer: r.json)
        }
        return code
    }

    static func trail(_ h: Harness, action: String) -> [JSONObject] {
        InProcessAdminAPITests.array(h.send(.get, "/v1/audit?limit=1000").json).map(InProcessAdminAPITests.object)
            .filter { $0["action"] == .string(action) }
    }

    static func metric(_ h: Harness, outcome: String) -> String? {
        let text = h.client.send(.get, "/metrics").bodyText ?? ""
        let prefix = "hyponatrack_activation_refused_total{outcome=\"\(outcome)\"} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    static let wrong = "ZZZZZ-ZZZZZ"

    struct EnrolmentFailed: Error { let answer: JSONValue }

    @Test func wrongCodesAreCountedNotWrittenAndSummarisedOncePerAddress() throws {
        let clock = SimulationClock(Self.now)
        let h = try Harness(clock: clock)
        _ = try Self.enroll(h, "REF-1")
        let rowsBefore = InProcessAdminAPITests.auditRows(h)
        for _ in 1...3 { #expect(Self.activate(h, "REF-1", Self.wrong, from: "198.51.100.7").status == 401) }
        for _ in 1...2 { #expect(Self.activate(h, "NOBODY-1", Self.wrong, from: "198.51.100.7").status == 401) }
        #expect(Self.activate(h, "REF-1", Self.wrong, from: "203.0.113.5").status == 401)
        #expect(InProcessAdminAPITests.auditRows(h) == rowsBefore, "no row per refusal")
        #expect(Self.metric(h, outcome: "wrong_code") == "6")
        #expect(Self.metric(h, outcome: "rate_limited") == "0")

        clock.set(Self.now + 60)
        #expect(try h.app.domain.refusalSummaries.flush(now: clock.now()) == 2)
        let summaries = Self.trail(h, action: "activation.refused_summary")
        #expect(summaries.map { $0["subject"] } == ["ip:198.51.100.7", "ip:203.0.113.5"], "most refusals first")
        let details = InProcessAdminAPITests.object(summaries.first?["details"] ?? .null)
        #expect(details["ip"] == "198.51.100.7" && details["count"] == 5 && details["outcomes"] == ["wrong_code": 5])
        #expect(details["since"] == .string(iso8601UTC(milliseconds: epochMilliseconds(Self.now))))
        #expect(try h.app.domain.refusalSummaries.flush(now: clock.now() + 60) == 0, "nothing new, nothing written")
    }

    @Test func theFifthWrongCodeLocksAndOnlyTheLockoutIsAuditedOnOneUpdatedRow() throws {
        let h = try Harness(clock: SimulationClock(Self.now))
        let code = try Self.enroll(h, "REF-2")
        for _ in 1...4 { #expect(Self.activate(h, "REF-2", Self.wrong, from: "198.51.100.7").status == 401) }
        let fifth = Self.activate(h, "REF-2", Self.wrong, from: "198.51.100.7")
        #expect(fifth.status == 429 && fifth.code == "locked" && fifth.retryAfter == "900")
        #expect(Self.activate(h, "REF-2", code, from: "203.0.113.5").code == "locked", "even the right code, from anywhere")
        let lockouts = Self.trail(h, action: "activation.lockout")
        #expect(lockouts.count == 1)
        #expect(lockouts.first?["subject"] == "REF-2" && lockouts.first?["actor"] == "anonymous")
        let rows = try h.app.database.read { db in try db.scalar("SELECT count(*) FROM activation_attempts", as: Int.self) }
        #expect(rows == 1, "one row for the patient, updated in place")
        #expect(Self.metric(h, outcome: "wrong_code") == "4" && Self.metric(h, outcome: "locked") == "2")
    }

    @Test func anEmptyBucketIsRefusedBeforeTheDatabaseWhileSuccessesTakeNoToken() throws {
        let clock = SimulationClock(Self.now)
        let h = try Harness(clock: clock) { $0.limits.anonymousPerMinute = 3 }
        let codes = try (1...6).map { try Self.enroll(h, "BKT-\($0)") }
        for _ in 1...3 { #expect(Self.activate(h, "BKT-1", Self.wrong, from: "198.51.100.7").status == 401) }
        let rowsBefore = InProcessAdminAPITests.auditRows(h)
        let limited = Self.activate(h, "BKT-1", codes[0], from: "198.51.100.7")
        #expect(limited.status == 429 && limited.code == "rate_limited" && limited.retryAfter == "20", "\(limited.json)")
        #expect(InProcessAdminAPITests.auditRows(h) == rowsBefore, "refused before any write")
        #expect(Self.activate(h, "BKT-1", codes[0], from: "203.0.113.5").status == 200, "another address is not limited")
        for i in 1...4 { #expect(Self.activate(h, "BKT-\(i + 1)", codes[i], from: "203.0.113.5").status == 200) }
        #expect(Self.activate(h, "BKT-6", codes[5], from: "203.0.113.5").status == 200, "five successes took nothing")
        clock.set(Self.now + 20)
        #expect(Self.activate(h, "BKT-1", Self.wrong, from: "198.51.100.7").status == 401, "a token came back after 20 s")
        #expect(Self.metric(h, outcome: "rate_limited") == "1")
    }

    @Test func aPatientTokenWorksThirtyDaysAfterTheMonitoringWindowAndIsExpiredTheDayAfter() throws {
        let clock = SimulationClock(Self.now)
        let h = try Harness(clock: clock)
        let code = try Self.enroll(h, "LIFE-1")
        let activated = Self.activate(h, "LIFE-1", code, from: "198.51.100.7")
        guard case .object(let o) = activated.json, case .string(let token)? = o["token"] else {
            Issue.record("activation failed: \(activated.json)"); return
        }
        #expect(o["monitoringEnds"] == "2026-03-16")
        clock.set(Berlin.at("2026-04-15", "23:30"))   // 2026-03-16 + 30 days, in Berlin
        #expect(h.send(.get, "/v1/me/today", token: token).status == 200)
        clock.set(Berlin.at("2026-04-16", "00:30"))
        let expired = h.send(.get, "/v1/me/today", token: token)
        #expect(expired.status == 401 && InProcessAPITests.errorCode(expired.json) == "expired_token", "\(expired.json)")
        #expect(h.send(.put, "/v1/me/days/2026-03-10", body: ["weightMorningKg": 80.0], token: token).status == 401)
    }

    @Test func theTokenLifetimeIsConfigurableAndFollowsAnExtendedWindow() throws {
        let clock = SimulationClock(Self.now)
        let h = try Harness(clock: clock) { $0.tokens.patientDaysAfterMonitoring = 0 }
        let code = try Self.enroll(h, "LIFE-2")
        guard case .object(let o) = Self.activate(h, "LIFE-2", code, from: "198.51.100.7").json,
              case .string(let token)? = o["token"] else { Issue.record("activation failed"); return }
        clock.set(Berlin.at("2026-03-16", "23:00"))
        #expect(h.send(.get, "/v1/me/today", token: token).status == 200, "the window's last day")
        // A lab on POD 12 that turns the day red extends the window to POD 21 (2026-03-23).
        #expect(h.send(.post, "/v1/patients/LIFE-2/labs", body: ["sodium": 124, "time": "2026-03-14T10:00:00+01:00"]).status == 201)
        clock.set(Berlin.at("2026-03-20", "12:00"))
        #expect(h.send(.get, "/v1/me/today", token: token).status == 200, "inside the extended window")
        clock.set(Berlin.at("2026-03-24", "12:00"))
        #expect(InProcessAPITests.errorCode(h.send(.get, "/v1/me/today", token: token).json) == "expired_token")
    }
}

extension ActivationRefusalTests {
    /// The activation codes of a patient that were used (none: the code still works).
    static func usedCodes(_ h: Harness, _ studyId: String) throws -> Int {
        try h.app.database.read { db in
            try db.scalar("""
                SELECT count(*) FROM activation_codes c JOIN patients p ON p.id = c.patient_id
                WHERE p.study_id = ? AND c.used_at IS NOT NULL
                """, [studyId], as: Int.self) ?? -1
        }
    }

    /// Surgery 2026-03-02: the window ends 2026-03-16, tokens work through 2026-04-15. A code
    /// reissued on the last day is still valid the next day, but activating with it is refused
    /// up front (a token would get 401 `expired_token` at once), counting no failure: the
    /// lockout still comes at the fifth wrong code.
    @Test func theRightCodeAfterTheTokenLifetimeIsRefusedAsExpiredAndCountsNoFailure() throws {
        let clock = SimulationClock(Berlin.at("2026-04-15", "23:00"))
        let h = try Harness(clock: clock)
        let r = h.send(.post, "/v1/patients", body: Simulation.profile("LIFE-3", surgery: "2026-03-02", []))
        #expect(r.status == 201, "\(r.json)")
        let reissued = h.send(.post, "/v1/patients/LIFE-3/activation")
        guard case .object(let o) = reissued.json, case .string(let code)? = o["activationCode"] else {
            Issue.record("reissue failed: \(reissued.json)"); return
        }
        clock.set(Berlin.at("2026-04-16", "00:30"))
        for _ in 1...4 { #expect(Self.activate(h, "LIFE-3", Self.wrong, from: "198.51.100.7").status == 401) }
        let ended = Self.activate(h, "LIFE-3", code, from: "198.51.100.7")
        #expect(ended.status == 410 && ended.code == "expired", "\(ended.json)")
        let message = InProcessAPITests.errorMessage(ended.json)
        #expect(message.contains("access ended on 2026-04-15") && message.contains("can no longer be activated"), "\(message)")
        #expect(try Self.usedCodes(h, "LIFE-3") == 0, "no code used, no token issued")
        #expect(Self.metric(h, outcome: "expired") == "1" && Self.metric(h, outcome: "wrong_code") == "4")
        let fifth = Self.activate(h, "LIFE-3", Self.wrong, from: "198.51.100.7")
        #expect(fifth.status == 429 && fifth.code == "locked", "the refusal was not a failure: \(fifth.json)")
        #expect(Self.activate(h, "LIFE-3", code, from: "203.0.113.5").code == "locked", "the lock comes first")
    }

    /// A reissued code could never be used: refused with the reason, nothing written, no code.
    @Test func reissuingAfterTheTokenLifetimeIsRefusedWithoutACode() throws {
        let clock = SimulationClock(Self.now)
        let h = try Harness(clock: clock) { $0.tokens.patientDaysAfterMonitoring = 10 }
        _ = try Self.enroll(h, "LIFE-4")
        clock.set(Berlin.at("2026-03-26", "23:30"))   // 2026-03-16 + 10 days: the last day
        #expect(h.send(.post, "/v1/patients/LIFE-4/activation").status == 200)
        clock.set(Berlin.at("2026-03-27", "08:00"))
        let rowsBefore = InProcessAdminAPITests.auditRows(h)
        let refused = h.send(.post, "/v1/patients/LIFE-4/activation")
        #expect(refused.status == 409 && InProcessAPITests.errorCode(refused.json) == "conflict", "\(refused.json)")
        #expect(InProcessAPITests.errorMessage(refused.json) == "the app access of LIFE-4 ended on 2026-03-26, 10 days after "
                + "monitoring ended on 2026-03-16 (tokens.patientDaysAfterMonitoring); a new activation code could not be used, "
                + "so none was issued")
        guard case .object(let o) = refused.json else { return }
        #expect(o["activationCode"] == nil)
        #expect(InProcessAdminAPITests.auditRows(h) == rowsBefore, "nothing written")
    }
}

/// `limits.anonymousPerMinute` and `tokens.patientDaysAfterMonitoring` in `hyponatrack.json`.
@Suite struct AnonymousLimitsConfigurationTests {
    func parse(_ json: JSONValue) throws(FieldError) -> ServerConfiguration {
        try ServerConfiguration.parse(json, directory: URL(fileURLWithPath: "/etc/hyponatrack"), file: nil)
    }

    @Test func theDefaultsAreThirtyAMinuteAndThirtyDays() throws {
        let defaults = try parse([:])
        #expect(defaults.limits.anonymousPerMinute == 30 && defaults.tokens.patientDaysAfterMonitoring == 30)
        let set = try parse(["limits": ["anonymousPerMinute": 5], "tokens": ["patientDaysAfterMonitoring": 0]])
        #expect(set.limits.anonymousPerMinute == 5 && set.tokens.patientDaysAfterMonitoring == 0)
    }

    @Test func aWrongKeyOrValueIsRefusedNamingIt() {
        #expect(throws: FieldError.invalid("limits.anonymousPerMinute", "0 is outside 1–100000",
                                           problem: .outOfRange(lower: 1, upper: 100_000))) {
            try parse(["limits": ["anonymousPerMinute": 0]])
        }
        #expect(throws: FieldError(.unknownField, field: "tokens.patientDays", "unknown field")) {
            try parse(["tokens": ["patientDays": 3]])
        }
    }
}
