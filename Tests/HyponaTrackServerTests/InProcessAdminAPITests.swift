import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Staff, audit, backup, sync and activation routes driven in-process through the daemon's API
/// handler (the harness of `InProcessAPITests`).
@Suite struct InProcessAdminAPITests {
    typealias Harness = InProcessApplication

    static func object(_ json: JSONValue) -> JSONObject {
        if case .object(let o) = json { return o }
        Issue.record("expected an object, got \(json)")
        return JSONObject()
    }

    static func array(_ json: JSONValue) -> [JSONValue] {
        if case .array(let a) = json { return a }
        Issue.record("expected an array, got \(json)")
        return []
    }

    /// Rows in the audit trail (every write adds at least one).
    static func auditRows(_ h: Harness) -> JSONValue? { object(h.send(.get, "/v1/audit/verify").json)["rowsChecked"] }

    func send(_ h: Harness, _ method: HTTPMethod, _ target: String, token: String) -> Int {
        h.client.send(method, target, headers: ["Authorization": "Bearer \(token)"]).status.rawValue
    }

    // MARK: staff

    @Test func anUnknownRoleNamesTheRoleFieldAndAddsNobody() throws {
        let h = try Harness()
        let before = Self.auditRows(h)
        let r = h.send(.post, "/v1/staff", body: ["name": "nurse.a", "role": "root"])
        #expect(r.status == 400)
        #expect(InProcessAPITests.errorField(r.json) == "role")
        #expect(InProcessAPITests.errorCode(r.json) == "invalid_value")
        #expect(Self.auditRows(h) == before)
        #expect(Self.array(h.send(.get, "/v1/staff").json).count == 1, "only the bootstrap admin")
    }

    @Test func aNameOutsideThePatternNamesTheNameFieldAndATakenNameIsAConflict() throws {
        let h = try Harness()
        for bad in ["two words", "", String(repeating: "x", count: 65), "staff:x"] {
            let r = h.send(.post, "/v1/staff", body: ["name": .string(bad), "role": "nurse"])
            #expect(r.status == 400, "\(bad)")
            #expect(InProcessAPITests.errorField(r.json) == "name", "\(bad)")
        }
        let unknownMember = h.send(.post, "/v1/staff", body: ["name": "n", "role": "nurse", "extra": 1])
        #expect(unknownMember.status == 400)
        #expect(h.send(.post, "/v1/staff", body: ["name": "Nurse.B", "role": "nurse"]).status == 201)
        let before = Self.auditRows(h)
        let taken = h.send(.post, "/v1/staff", body: ["name": "nurse.b", "role": "viewer"])
        #expect(taken.status == 409)
        #expect(InProcessAPITests.errorField(taken.json) == "name", "names collide whatever their letter case")
        #expect(Self.auditRows(h) == before)
    }

    @Test func anAddedMembersTokenIsShownOnceAndWorksUntilTheyAreRevoked() throws {
        let h = try Harness()
        let added = Self.object(h.send(.post, "/v1/staff", body: ["name": "viewer.c", "role": "viewer"]).json)
        #expect(Array(added.keys) == ["name", "role", "sites", "allSites", "token"])
        #expect(added["sites"] == ["main"] && added["allSites"] == false, "the study's only site when none is named")
        #expect(added["role"] == "viewer")
        guard case .string(let token)? = added["token"] else {
            Issue.record("no token in \(added)")
            return
        }
        #expect(send(h, .get, "/v1/audit?limit=1", token: token) == 200, "viewers read")
        #expect(send(h, .get, "/v1/staff", token: token) == 403, "only admins manage staff")
        let listed = Self.array(h.send(.get, "/v1/staff").json).map(Self.object)
        let viewer = try #require(listed.first { $0["name"] == "viewer.c" })
        #expect(Array(viewer.keys) == ["name", "role", "active", "createdAt", "revokedAt", "sites", "allSites"])
        #expect(viewer["active"] == true)
        #expect(viewer["revokedAt"] == .null)
        #expect(listed.allSatisfy { $0["token"] == nil }, "a token is never listed")

        let revoked = h.send(.post, "/v1/staff/viewer.c/revocation")
        #expect(revoked.status == 200)
        #expect(revoked.json == ["name": "viewer.c", "role": "viewer", "active": false])
        #expect(send(h, .get, "/v1/audit?limit=1", token: token) == 401)
        let after = Self.array(h.send(.get, "/v1/staff").json).map(Self.object).first { $0["name"] == "viewer.c" }
        #expect(after?["active"] == false)
        #expect(after?["revokedAt"] != .null)
        let trail = Self.array(h.send(.get, "/v1/audit?subject=staff:viewer.c").json).map(Self.object)
        #expect(trail.map { $0["action"] } == ["staff.add", "staff.revoke"])
        #expect(trail.allSatisfy { $0["actor"] == "staff:bootstrap-admin" })
        #expect(trail.map { $0["details"] } == [["role": "viewer", "sites": ["main"], "allSites": false], ["role": "viewer", "sessionsEnded": 0]],
                "a revocation also ends the member's console sessions and says how many")
    }

    @Test func revokingTheLastActiveAdminIsAConflictAndChangesNothing() throws {
        let h = try Harness()
        let before = Self.auditRows(h)
        let r = h.send(.post, "/v1/staff/bootstrap-admin/revocation")
        #expect(r.status == 409)
        #expect(InProcessAPITests.errorCode(r.json) == "conflict")
        #expect(Self.auditRows(h) == before)
        #expect(send(h, .get, "/v1/staff", token: h.adminToken) == 200, "the admin's token still works")
    }

    @Test func revokingSomeoneUnknownIsNotFoundAndAnInvalidNameNamesTheParameter() throws {
        let h = try Harness()
        let unknown = h.send(.post, "/v1/staff/nobody/revocation")
        #expect(unknown.status == 404)
        #expect(InProcessAPITests.errorCode(unknown.json) == "not_found")
        let invalid = h.send(.post, "/v1/staff/a%20b/revocation")
        #expect(invalid.status == 400)
        #expect(InProcessAPITests.errorField(invalid.json) == "name")
    }

    // MARK: audit and backup

    @Test func anAuditQueryOutsideItsLimitsNamesTheParameter() throws {
        let h = try Harness()
        for (query, field) in [("limit=0", "limit"), ("limit=1001", "limit"), ("limit=ten", "limit"), ("after=-1", "after"),
                               ("subject=", "subject"), ("subject=\(String(repeating: "s", count: 201))", "subject")] {
            let r = h.send(.get, "/v1/audit?\(query)")
            #expect(r.status == 400, "\(query)")
            #expect(InProcessAPITests.errorField(r.json) == .string(field), "\(query)")
        }
    }

    @Test func auditPagesFollowTheChainAndFilterBySubject() throws {
        let h = try Harness()
        for name in ["a.1", "a.2", "a.3"] { _ = h.send(.post, "/v1/staff", body: ["name": .string(name), "role": "nurse"]) }
        let all = Self.array(h.send(.get, "/v1/audit").json).map(Self.object)
        #expect(all.map { $0["seq"] } == [1, 2, 3, 4])
        #expect(Array(all[0].keys) == ["seq", "at", "actor", "action", "subject", "details", "hash"])
        let page = Self.array(h.send(.get, "/v1/audit?limit=2&after=1").json).map(Self.object)
        #expect(page.map { $0["seq"] } == [2, 3])
        let one = Self.array(h.send(.get, "/v1/audit?subject=staff:a.2").json).map(Self.object)
        #expect(one.map { $0["seq"] } == [3])
        let verified = Self.object(h.send(.get, "/v1/audit/verify").json)
        #expect(verified["intact"] == true)
        #expect(verified["rowsChecked"] == 4)
        #expect(verified["lastSeq"] == 4)
        #expect(verified["firstBrokenSeq"] == .null)
        #expect(verified["lastHash"] == all[3]["hash"])
    }

    @Test func aBackupIsCheckedBeforeItIsReportedAndIsAudited() throws {
        let h = try Harness()
        let r = h.send(.post, "/v1/backup")
        #expect(r.status == 201)
        let backup = Self.object(r.json)
        #expect(Array(backup.keys) == ["path", "bytes", "createdAt", "integrity", "auditIntact", "auditRows", "schemaVersion", "sha256",
                                       "pruned"])
        #expect(backup["integrity"] == "ok")
        #expect(backup["auditIntact"] == true)
        #expect(backup["auditRows"] == 1, "the copy holds the bootstrap row, not its own")
        guard case .string(let path)? = backup["path"] else {
            Issue.record("no path in \(backup)")
            return
        }
        #expect(path.hasPrefix(h.directory.appendingPathComponent("data/backups").path))
        #expect(FileManager.default.fileExists(atPath: path))
        let last = Self.array(h.send(.get, "/v1/audit?after=1").json).map(Self.object)
        #expect(last.map { $0["action"] } == ["backup.create"])
        #expect(last.first?["details"] == ["path": .string(path), "bytes": backup["bytes"] ?? .null])
    }

    // MARK: sync and activation

    @Test func withoutASyncBlockEverySyncRouteIsAConflictWhateverTheBody() throws {
        let h = try Harness()
        let retry = h.send(.post, "/v1/sync/retry", body: ["dead": "yes"])
        #expect(retry.status == 409, "no sync: refused before the body is read")
        #expect(InProcessAPITests.errorCode(retry.json) == "conflict")
        for (method, target) in [(HTTPMethod.get, "/v1/sync/status"), (.post, "/v1/sync/resume"), (.get, "/v1/sync/check"),
                                 (.get, "/v1/sync/reconcile"), (.post, "/v1/sync/export-all")] {
            #expect(h.send(method, target).status == 409, "\(target)")
        }
        let health = Self.object(try JSONParser.parse(h.client.send(.get, "/healthz").body))
        #expect(health["sync"] == ["enabled": false, "halted": false, "pending": 0, "oldestPendingSeconds": nil, "deadLetters": 0])
    }

    @Test func anInvalidStudyIdNamesTheFieldAndAWrongCodeIsRefusedAndCountedWithoutAnAuditRow() throws {
        let h = try Harness()
        let before = Self.auditRows(h)
        let invalid = h.send(.post, "/v1/activate", body: ["studyId": "not valid!", "code": "ABCDE-FGHJK"])
        #expect(invalid.status == 400)
        #expect(InProcessAPITests.errorField(invalid.json) == "studyId")
        let missing = h.send(.post, "/v1/activate", body: ["studyId": "HT-NONE"])
        #expect(InProcessAPITests.errorField(missing.json) == "code")
        #expect(Self.auditRows(h) == before, "a body refused as invalid is no attempt")

        let wrong = h.send(.post, "/v1/activate", body: ["studyId": "HT-NONE", "code": "ABCDE-FGHJK"])
        #expect(wrong.status == 401)
        #expect(InProcessAPITests.errorCode(wrong.json) == "unauthenticated")
        #expect(Self.auditRows(h) == before, "refusals are counted and summarised per address, not written one by one")
        #expect(h.app.service.configuration.limits.anonymousPerMinute == 30)
        #expect(h.client.send(.get, "/metrics").bodyText?.contains("hyponatrack_activation_refused_total{outcome=\"wrong_code\"} 1") == true)
    }
}
