import Foundation
import SQLite
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

@Suite struct SecurityTests {
    let now = TestDatabase.now

    // MARK: Staff tokens

    @Test func staffTokenAuthenticatesAsItsStaffMemberWithRole() throws {
        let t = try TestDatabase()
        let (staff, token) = try t.write { try StaffDirectory.createStaff($0, name: "alice", role: .nurse, by: "system", now: now) }
        #expect(token.hasPrefix("hts_"))
        #expect(token.count == 47)
        #expect(staff.role == .nurse && staff.createdBy == "system" && staff.isActive)
        let principal = try Authenticator.authenticate(t.db, bearer: token, now: now)
        #expect(principal == .staff(id: staff.id, name: "alice", role: .nurse))
        #expect(principal?.auditActor == "staff:alice")
    }

    @Test func revokedStaffMemberIsRefusedWithAllTokens() throws {
        let t = try TestDatabase()
        let (_, token) = try t.write { try StaffDirectory.createStaff($0, name: "bob", role: .viewer, by: "staff:root", now: now) }
        let revoked = try t.write { try StaffDirectory.revokeStaff($0, name: "BOB", by: "staff:root", now: now + 60) }
        #expect(revoked.revokedAt == epochMilliseconds(now + 60) && revoked.revokedBy == "staff:root")
        #expect(try Authenticator.authenticate(t.db, bearer: token, now: now + 61) == nil)
        let openTokens = try t.db.scalar("SELECT count(*) FROM staff_tokens WHERE revoked_at IS NULL", as: Int.self)
        #expect(openTokens == 0)
        #expect(throws: StaffError.alreadyRevoked("bob")) {
            try t.write { try StaffDirectory.revokeStaff($0, name: "bob", by: "staff:root", now: now) }
        }
    }

    @Test func expiredTokenIsRefused() throws {
        let t = try TestDatabase()
        let (_, token) = try t.write { try StaffDirectory.createStaff($0, name: "carol", role: .admin, by: "system", now: now) }
        try t.db.execute("UPDATE staff_tokens SET expires_at = ?", [epochMilliseconds(now + 10)])
        #expect(try Authenticator.authenticate(t.db, bearer: token, now: now + 9) != nil)
        #expect(try Authenticator.authenticate(t.db, bearer: token, now: now + 10) == nil)
    }

    @Test func malformedOrForeignTokensAreRefused() throws {
        let t = try TestDatabase()
        let (_, token) = try t.write { try StaffDirectory.createStaff($0, name: "dave", role: .admin, by: "system", now: now) }
        let body = String(token.dropFirst(4))
        let candidates = [
            "", "hts_", "Bearer", "garbage", "htp_" + body, "HTS_" + body, "xyz_" + body,
            token + "A", String(token.dropLast()), "hts_" + String(body.dropLast()) + "=",
            "hts_" + String(repeating: "A", count: 43),
        ]
        for candidate in candidates {
            #expect(try Authenticator.authenticate(t.db, bearer: candidate, now: now) == nil, "\(candidate)")
        }
    }

    @Test func storedDatabaseHoldsOnlyTokenHashes() throws {
        let t = try TestDatabase()
        let (_, staffToken) = try t.write { try StaffDirectory.createStaff($0, name: "erin", role: .nurse, by: "system", now: now) }
        let patientId = try t.insertPatient(studyId: "HT-001")
        let issued = try t.write { try Activation.issueCode($0, patientId: patientId, now: now) }
        let result = try t.write { try Activation.activate($0, studyIdKey: "ht-001", code: issued.code, now: now, unenrolled: UnenrolledActivationAttempts()) }
        guard case .activated(_, _, let patientToken) = result else {
            Issue.record("activation failed: \(result)")
            return
        }
        let stored = try t.db.scalar("SELECT token_hash FROM staff_tokens", as: String.self)
        #expect(stored == Secrets.tokenHash(staffToken))
        try t.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let bytes = try t.fileBytes()
        #expect(bytes.containsSequence(Array(Secrets.tokenHash(staffToken).utf8)), "the scan must see stored text")
        for secret in [staffToken, patientToken, issued.code, String(staffToken.dropFirst(4)), String(patientToken.dropFirst(4))] {
            #expect(!bytes.containsSequence(Array(secret.utf8)), "secret found in the database file")
        }
    }

    // MARK: Patient tokens

    @Test func patientTokenStopsWorkingWhenPatientIsWithdrawn() throws {
        let t = try TestDatabase()
        let patientId = try t.insertPatient(studyId: "HT-002")
        let issued = try t.write { try Activation.issueCode($0, patientId: patientId, now: now) }
        guard case .activated(_, _, let token) = try t.write({ try Activation.activate($0, studyIdKey: "ht-002", code: issued.code, now: now, unenrolled: UnenrolledActivationAttempts()) }) else {
            Issue.record("activation failed")
            return
        }
        #expect(token.hasPrefix("htp_"))
        #expect(try Authenticator.authenticate(t.db, bearer: token, now: now) == .patient(patientId: patientId, studyId: "HT-002"))
        try t.withdraw(patientId: patientId)
        #expect(try Authenticator.authenticate(t.db, bearer: token, now: now) == nil)
    }

    // MARK: Authorization header

    @Test func bearerSchemeIsCaseInsensitiveAndOtherSchemesAreRefused() {
        #expect(AuthorizationHeader.bearerToken("Bearer abc") == "abc")
        #expect(AuthorizationHeader.bearerToken("bearer abc") == "abc")
        #expect(AuthorizationHeader.bearerToken("BEARER   abc") == "abc")
        #expect(AuthorizationHeader.bearerToken("Basic abc") == nil)
        #expect(AuthorizationHeader.bearerToken("Bearer") == nil)
        #expect(AuthorizationHeader.bearerToken("Bearer a b") == nil)
        #expect(AuthorizationHeader.bearerToken("") == nil)
        #expect(AuthorizationHeader.bearerToken(nil) == nil)
        #expect(AuthorizationHeader.bearerToken(" \tBearer\thts_x-Y_z  ") == "hts_x-Y_z", "blanks around and between")
        #expect(AuthorizationHeader.bearerToken("Bearers abc") == nil)
        #expect(AuthorizationHeader.bearerToken("Bearär abc") == nil)
        #expect(AuthorizationHeader.bearerToken("Bearer tökén") == "tökén", "returned exactly as sent")
    }

    @Test func authenticateFromHeaderValue() throws {
        let t = try TestDatabase()
        let (_, token) = try t.write { try StaffDirectory.createStaff($0, name: "frank", role: .viewer, by: "system", now: now) }
        #expect(try Authenticator.authenticate(t.db, authorizationHeader: "bearer \(token)", now: now)?.staffRole == .viewer)
        #expect(try Authenticator.authenticate(t.db, authorizationHeader: token, now: now) == nil)
        #expect(try Authenticator.authenticate(t.db, authorizationHeader: nil, now: now) == nil)
    }

    // MARK: Roles

    @Test(arguments: [
        (Role.viewer, true, false, false),
        (Role.nurse, true, true, false),
        (Role.admin, true, true, true),
    ])
    func rolePermissionsFollowTheProductMatrix(role: Role, read: Bool, write: Bool, admin: Bool) {
        #expect(role.canRead == read)
        #expect(role.canWrite == write)
        #expect(role.canAdmin == admin)
    }

    @Test func patientPrincipalHasNoStaffRole() {
        #expect(Principal.patient(patientId: 1, studyId: "HT-1").staffRole == nil)
        #expect(Principal.patient(patientId: 1, studyId: "HT-1").auditActor == "patient:HT-1")
    }

    // MARK: Staff management

    @Test func staffNamesAreValidatedAndUniqueCaseInsensitively() throws {
        let t = try TestDatabase()
        for bad in ["", "has space", "colon:name", "émile", String(repeating: "a", count: 65)] {
            #expect(throws: StaffError.invalidName(bad)) {
                try t.write { try StaffDirectory.createStaff($0, name: bad, role: .viewer, by: "system", now: now) }
            }
        }
        try t.write { _ = try StaffDirectory.createStaff($0, name: "Nurse.Anna-1_x", role: .nurse, by: "system", now: now) }
        #expect(throws: StaffError.nameTaken("nurse.anna-1_X")) {
            try t.write { try StaffDirectory.createStaff($0, name: "nurse.anna-1_X", role: .viewer, by: "system", now: now) }
        }
        try t.write { _ = try StaffDirectory.createStaff($0, name: String(repeating: "z", count: 64), role: .viewer, by: "system", now: now) }
    }

    @Test func listStaffShowsEveryMemberByNameIncludingRevoked() throws {
        let t = try TestDatabase()
        try t.write { db in
            _ = try StaffDirectory.createStaff(db, name: "zoe", role: .admin, by: "system", now: now)
            _ = try StaffDirectory.createStaff(db, name: "Adam", role: .nurse, by: "staff:zoe", now: now)
            _ = try StaffDirectory.createStaff(db, name: "mia", role: .viewer, by: "staff:zoe", now: now)
            try StaffDirectory.revokeStaff(db, name: "mia", by: "staff:zoe", now: now)
        }
        let list = try StaffDirectory.listStaff(t.db)
        #expect(list.map(\.name) == ["Adam", "mia", "zoe"])
        #expect(list.map(\.isActive) == [true, false, true])
    }

    @Test func revokingUnknownOrLastAdminIsRefused() throws {
        let t = try TestDatabase()
        #expect(throws: StaffError.notFound("ghost")) {
            try t.write { try StaffDirectory.revokeStaff($0, name: "ghost", by: "system", now: now) }
        }
        try t.write { _ = try StaffDirectory.createStaff($0, name: "root", role: .admin, by: "system", now: now) }
        #expect(throws: StaffError.lastActiveAdmin("root")) {
            try t.write { try StaffDirectory.revokeStaff($0, name: "root", by: "staff:root", now: now) }
        }
        try t.write { _ = try StaffDirectory.createStaff($0, name: "second", role: .admin, by: "staff:root", now: now) }
        try t.write { _ = try StaffDirectory.revokeStaff($0, name: "root", by: "staff:second", now: now) }
    }

    @Test func bootstrapAdminIsCreatedOnlyOnAnEmptyStaffTable() throws {
        let t = try TestDatabase()
        let token = try t.write { try StaffDirectory.bootstrapAdmin($0, now: now) }
        let principal = try Authenticator.authenticate(t.db, bearer: try #require(token), now: now)
        #expect(principal?.auditActor == "staff:bootstrap-admin")
        #expect(principal?.staffRole == .admin)
        #expect(try t.write { try StaffDirectory.bootstrapAdmin($0, now: now) } == nil)
        #expect(try StaffDirectory.listStaff(t.db).count == 1)
    }

    // MARK: Randomness and formats

    @Test func thousandTokensAreAllDistinctAndWellFormed() throws {
        var seen = Set<String>()
        for i in 0..<1000 {
            let token = try Secrets.newToken(i.isMultiple(of: 2) ? .staff : .patient)
            #expect(Secrets.tokenKind(of: token) != nil)
            seen.insert(String(token.dropFirst(4)))
        }
        #expect(seen.count == 1000)
    }
}
