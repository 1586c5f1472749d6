import SQLite
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

@Suite struct ActivationTests {
    let now = TestDatabase.now
    /// The daemon's in-memory counters of study IDs that are not enrolled (one per test).
    let unenrolled = UnenrolledActivationAttempts()

    /// A database with one patient `HT-007` and a fresh code for them.
    private func enrolled() throws -> (TestDatabase, patientId: Int64, code: String) {
        let t = try TestDatabase()
        let patientId = try t.insertPatient(studyId: "HT-007")
        let issued = try t.write { try Activation.issueCode($0, patientId: patientId, now: now) }
        return (t, patientId, issued.code)
    }

    private func activate(_ t: TestDatabase, key: String = "ht-007", _ code: String, at time: Double) throws -> ActivationResult {
        try t.write { try Activation.activate($0, studyIdKey: key, code: code, now: time, unenrolled: unenrolled) }
    }

    private func wrongCode(for code: String) -> String {
        // Same alphabet and length, different first character.
        (code.first == "Z" ? "Y" : "Z") + code.dropFirst()
    }

    @Test func activationCodesAreTenCharactersFromTheUnambiguousAlphabet() throws {
        let alphabet = Set("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")
        var seen = Set<Character>()
        for _ in 0..<500 {
            let code = try Secrets.newActivationCode()
            #expect(code.count == 10)
            #expect(code.allSatisfy(alphabet.contains))
            seen.formUnion(code)
        }
        #expect(seen == alphabet, "every symbol should turn up in 5,000 draws")
        #expect(!alphabet.contains("0") && !alphabet.contains("O") && !alphabet.contains("1") && !alphabet.contains("I"))
    }

    @Test func codeExpiresAfterSeventyTwoHoursUnlessConfiguredOtherwise() throws {
        let t = try TestDatabase()
        let id = try t.insertPatient(studyId: "HT-010")
        let issued = try t.write { try Activation.issueCode($0, patientId: id, now: now) }
        #expect(issued.expiresAt == epochMilliseconds(now + 72 * 3600))
        let short = try t.write { try Activation.issueCode($0, patientId: id, now: now, ttl: 60) }
        #expect(short.expiresAt == epochMilliseconds(now + 60))
    }

    @Test func rightCodeActivatesOnceAndIssuesAPatientToken() throws {
        let (t, patientId, code) = try enrolled()
        let result = try activate(t, code, at: now + 60)
        guard case .activated(let id, let studyId, let token) = result else {
            Issue.record("expected activation, got \(result)")
            return
        }
        #expect(id == patientId && studyId == "HT-007")
        #expect(try Authenticator.authenticate(t.db, bearer: token, now: now + 61) == .patient(patientId: patientId, studyId: "HT-007"))
        let activatedAt = try t.db.scalar("SELECT activated_at FROM patients WHERE id = ?", [patientId], as: Int64.self)
        #expect(activatedAt == epochMilliseconds(now + 60))
        #expect(try activate(t, code, at: now + 120) == .wrongCode, "a code is single use")
    }

    @Test func codeInputIsCaseInsensitiveAndToleratesDashesAndSpaces() throws {
        let (t, _, code) = try enrolled()
        let typed = " " + Secrets.groupedActivationCode(code).lowercased().replacingOccurrences(of: "-", with: " - ") + " "
        guard case .activated = try activate(t, typed, at: now) else {
            Issue.record("\(typed) was not accepted")
            return
        }
        #expect(Secrets.normalizedActivationCode("abcde-fghjk") == "ABCDEFGHJK")
        #expect(Secrets.normalizedActivationCode("ABCDEFGHJ") == nil)
        #expect(Secrets.normalizedActivationCode("ABCDEFGHJ0") == nil, "0 is not in the alphabet")
        #expect(Secrets.normalizedActivationCode("ABCDEFGHßK") == nil, "non-ASCII is refused, not case-mapped")
    }

    @Test func fourWrongCodesAreUnauthorisedAndTheFifthLocks() throws {
        let (t, _, code) = try enrolled()
        for attempt in 1...4 {
            #expect(try activate(t, wrongCode(for: code), at: now + Double(attempt)) == .wrongCode)
        }
        #expect(try activate(t, wrongCode(for: code), at: now + 5) == .locked(retryAfterSeconds: 900, startedNow: true))
        let lockedUntil = try t.db.scalar("SELECT locked_until FROM activation_attempts WHERE study_id_key = 'ht-007'", as: Int64.self)
        #expect(lockedUntil == epochMilliseconds(now + 5 + 900))
    }

    @Test func lockRefusesEvenTheRightCodeWithoutExtendingTheLock() throws {
        let (t, _, code) = try enrolled()
        for attempt in 1...5 { _ = try activate(t, "garbage", at: now + Double(attempt)) }
        // Locked at now+5 until now+905.
        #expect(try activate(t, code, at: now + 305) == .locked(retryAfterSeconds: 600))
        #expect(try activate(t, wrongCode(for: code), at: now + 605) == .locked(retryAfterSeconds: 300))
        #expect(try activate(t, code, at: now + 904.5) == .locked(retryAfterSeconds: 1))
        let lockedUntil = try t.db.scalar("SELECT locked_until FROM activation_attempts", as: Int64.self)
        #expect(lockedUntil == epochMilliseconds(now + 905))
    }

    @Test func lockExpiresAfterFifteenMinutesAndCountingStartsAfresh() throws {
        let (t, _, code) = try enrolled()
        for attempt in 1...5 { _ = try activate(t, wrongCode(for: code), at: now + Double(attempt)) }
        let after = now + 5 + 15 * 60
        #expect(try activate(t, wrongCode(for: code), at: after) == .wrongCode, "one failure after the lock does not relock")
        guard case .activated = try activate(t, code, at: after + 1) else {
            Issue.record("the right code should work once the lock expired")
            return
        }
        #expect(try t.db.scalar("SELECT failures FROM activation_attempts", as: Int.self) == 0, "success resets the counter")
        #expect(try t.db.scalar("SELECT count(*) FROM activation_attempts", as: Int.self) == 1, "in place: the patient's one row")
    }

    @Test func expiredCodeIsReportedAsExpiredWithoutCountingAFailure() throws {
        let (t, _, code) = try enrolled()
        #expect(try activate(t, code, at: now + 72 * 3600) == .expired)
        #expect(try t.db.scalar("SELECT count(*) FROM activation_attempts", as: Int.self) == 0)
        #expect(try activate(t, wrongCode(for: code), at: now + 72 * 3600) == .wrongCode)
    }

    @Test func unknownStudyIsTreatedExactlyLikeAWrongCodeButCountedInMemoryOnly() throws {
        let (t, _, code) = try enrolled()
        for attempt in 1...4 {
            #expect(try activate(t, key: "ht-999", code, at: now + Double(attempt)) == .wrongCode)
        }
        #expect(try activate(t, key: "ht-999", code, at: now + 5) == .locked(retryAfterSeconds: 900, startedNow: true))
        #expect(try activate(t, key: "ht-999", code, at: now + 6) == .locked(retryAfterSeconds: 899))
        #expect(try t.db.scalar("SELECT count(*) FROM activation_attempts", as: Int.self) == 0, "guesses write nothing")
        #expect(unenrolled.attempts("ht-999") == ActivationRepository.Attempts(failures: 5, lockedUntil: epochMilliseconds(now + 905)))
        // Another study's lock does not touch HT-007.
        guard case .activated = try activate(t, code, at: now + 6) else {
            Issue.record("HT-007 should not be locked by guesses at another ID")
            return
        }
    }

    @Test func guessesAtManyUnknownIdsKeepAtMostTheCapInMemoryAndLockedOnesLongest() {
        let memory = UnenrolledActivationAttempts(maxKeys: 100)
        let ms = epochMilliseconds(now)
        memory.save("locked", failures: 5, lastFailureAt: ms, lockedUntil: ms + 900_000)
        for i in 0..<10_000 { memory.save("guess-\(i)", failures: 1, lastFailureAt: ms + Int64(i), lockedUntil: nil) }
        #expect(memory.count <= 100)
        #expect(memory.attempts("locked") == ActivationRepository.Attempts(failures: 5, lockedUntil: ms + 900_000))
        #expect(memory.attempts("guess-9999")?.failures == 1, "the newest guess is kept")
    }

    @Test func withdrawnPatientCannotActivateNorGetANewCode() throws {
        let (t, patientId, code) = try enrolled()
        try t.withdraw(patientId: patientId)
        #expect(try activate(t, code, at: now) == .wrongCode)
        #expect(throws: ActivationError.patientWithdrawn(studyId: "HT-007")) {
            try t.write { try Activation.reissue($0, patientId: patientId, now: now) }
        }
        #expect(throws: ActivationError.patientNotFound(42)) {
            try t.write { try Activation.issueCode($0, patientId: 42, now: now) }
        }
    }

    @Test func newCodeRevokesTheEarlierUnusedCode() throws {
        let (t, patientId, first) = try enrolled()
        let second = try t.write { try Activation.issueCode($0, patientId: patientId, now: now + 1) }
        #expect(try activate(t, first, at: now + 2) == .wrongCode)
        guard case .activated = try activate(t, second.code, at: now + 3) else {
            Issue.record("the newest code should work")
            return
        }
    }

    @Test func reissueRevokesEarlierPatientTokensAndCodesAndLiftsTheLock() throws {
        let (t, patientId, code) = try enrolled()
        guard case .activated(_, _, let oldToken) = try activate(t, code, at: now) else {
            Issue.record("first activation failed")
            return
        }
        let pending = try t.write { try Activation.issueCode($0, patientId: patientId, now: now + 1) }
        for attempt in 1...5 { _ = try activate(t, "garbage", at: now + 1 + Double(attempt)) }
        let reissued = try t.write { try Activation.reissue($0, patientId: patientId, now: now + 10) }
        #expect(try Authenticator.authenticate(t.db, bearer: oldToken, now: now + 11) == nil)
        #expect(try activate(t, pending.code, at: now + 12) == .wrongCode)
        guard case .activated(_, _, let newToken) = try activate(t, reissued.code, at: now + 13) else {
            Issue.record("the reissued code should work")
            return
        }
        #expect(try Authenticator.authenticate(t.db, bearer: newToken, now: now + 14) != nil)
    }

    @Test func refusalsAreCommittedByTheCallersTransaction() throws {
        let (t, _, code) = try enrolled()
        // As the daemon does: the refusal is returned (not thrown) from the write job, so the
        // failure counter commits with it.
        let outcome = try t.db.transaction(.immediate) {
            try Activation.activate(t.db, studyIdKey: "ht-007", code: wrongCode(for: code), now: now, unenrolled: unenrolled)
        }
        #expect(outcome == .wrongCode)
        #expect(!t.db.isInTransaction)
        #expect(try t.db.scalar("SELECT failures FROM activation_attempts", as: Int.self) == 1)
    }

    @Test func pruningForgetsOldUnlockedCountersOnly() throws {
        let (t, _, _) = try enrolled()
        try t.insertPatient(studyId: "OLD")
        try t.insertPatient(studyId: "LOCKED")
        _ = try activate(t, key: "old", "garbage", at: now)
        for attempt in 1...5 { _ = try activate(t, key: "locked", "garbage", at: now + 86_000 + Double(attempt)) }
        let removed = try t.write { try Activation.pruneAttempts($0, now: now + 86_401) }
        #expect(removed == 1)
        #expect(try t.db.query("SELECT study_id_key FROM activation_attempts").map { try $0.string(0) } == ["locked"])
    }
}
