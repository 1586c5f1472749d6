import Foundation
import HyponaTrackCore
import SQLite
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The patient revision (`PatientsSchema.v2`) that lets a submission be computed off the
/// writer: every change to what an evaluation reads moves it on; other patients' changes and
/// the submission's own outputs (evaluations) do not.
@Suite struct PatientRevisionTests {
    final class Store {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rev-\(UUID().uuidString)")
        let db: Connection
        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            db = try Connection(path: directory.appendingPathComponent("t.sqlite").path)
            db.attach(AuditKey.forTests)
            _ = try Schema.migrator().migrate(db)
        }
        deinit { db.close(); try? FileManager.default.removeItem(at: directory) }
    }

    static let date = LocalDate("2026-03-09")!
    static let profile = PatientProfile(studyId: "REV-1", surgeryDate: LocalDate("2026-03-02")!, timeZone: "Europe/Berlin",
                                        age: 50, sex: .male, bmi: 27, baselineWeightKg: 80, baselineReactionTimeMs: 600)

    func revision(_ s: Store, _ id: Int64) throws -> Int64 { try #require(try PatientRepository.revision(s.db, id: id)) }

    func symptomPatch(_ id: String) -> DayPatch {
        var patch = DayPatch()
        patch.symptoms = [SymptomEntry(id: id, time: Timestamp("2026-03-09T08:00:00+01:00")!, slot: .morning, nausea: 1,
                                       headache: 0, fatigue: 0, confusion: 0, muscleCramps: 0, vas: 10)]
        return patch
    }

    @Test func everyChangeToThePatientsDataMovesTheRevisionOn() throws {
        let s = try Store()
        let id = try PatientRepository.insert(s.db, profile: Self.profile, by: "staff:t", at: 1)
        var last = try revision(s, id)
        func moved(_ what: String, _ change: () throws -> Void) throws {
            try change()
            let now = try revision(s, id)
            #expect(now > last, "\(what) did not move the revision")
            last = now
        }
        let patch = symptomPatch("s1")
        try moved("a day saved") { try DayRepository.save(s.db, patientId: id, day: patch.apply(to: DailyEntry(date: Self.date)), patch: patch, byPatient: true, at: 2) }
        try moved("an item deleted") {
            _ = try DayRepository.deleteItem(s.db, kind: .symptom, patientId: id, date: Self.date, clientId: "s1", by: "staff:t",
                                             reason: "test", at: 3)
        }
        var labId: Int64 = 0
        try moved("a lab added") {
            labId = try DayRepository.addLab(s.db, patientId: id, date: Self.date, time: Timestamp("2026-03-09T09:00:00+01:00")!,
                                             sodium: 131, by: "staff:t", at: 4)
        }
        try moved("a lab deleted") { _ = try DayRepository.deleteLab(s.db, patientId: id, labId: labId, by: "staff:t", reason: "x", at: 5) }
        try moved("the profile updated") { try PatientRepository.updateProfile(s.db, id: id, profile: Self.profile, at: 6) }
        try moved("a withdrawal") { try PatientRepository.withdraw(s.db, id: id, date: Self.date, reason: "x", at: 7) }
    }

    @Test func anotherPatientsDayLeavesTheRevisionAlone() throws {
        let s = try Store()
        let id = try PatientRepository.insert(s.db, profile: Self.profile, by: "staff:t", at: 1)
        var other = Self.profile
        other.studyId = "REV-2"
        let otherId = try PatientRepository.insert(s.db, profile: other, by: "staff:t", at: 1)
        let before = try revision(s, id)
        let patch = symptomPatch("s1")
        try DayRepository.save(s.db, patientId: otherId, day: patch.apply(to: DailyEntry(date: Self.date)), patch: patch, byPatient: true, at: 2)
        #expect(try revision(s, id) == before)
        #expect(try revision(s, otherId) > 0)
    }

    @Test func anUpgradeKeepsEachPatientsRevisionAndGoesOnMovingIt() throws {
        let s = try Store()
        // A store as v9 left it: the revision was a column of patients.
        let directory = s.directory.appendingPathComponent("old")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let db = try Connection(path: directory.appendingPathComponent("old.sqlite").path)
        defer { db.close() }
        db.attach(AuditKey.forTests)
        _ = try Schema.migrator(through: "v9_import_proposals").migrate(db)
        let id = try PatientRepository.insert(db, profile: Self.profile, by: "staff:t", at: 1)
        // A day as v9 stored it (no `submitted_at` yet, so not through today's `DayRepository.save`).
        try db.execute("INSERT INTO days (patient_id, date, weight_morning_kg, created_at, updated_at) VALUES (?, ?, 80, 2, 2)",
                       [id, Self.date.description])
        let before = try #require(try db.queryOne("SELECT revision FROM patients WHERE id = ?", [id])?.int64(0))
        #expect(before > 0)

        // Through the move to its own table (v14's backfill of days.submitted_at, an UPDATE of
        // days, moves it on once, which only makes a plan in flight compute again).
        _ = try Schema.migrator(through: "v10_patient_revisions").migrate(db)
        // The patient row as the server reads it now also has the site of v19_sites.
        try db.transaction(.immediate) { try db.execute(SitesSchema.v1) }
        #expect(try PatientRepository.revision(db, id: id) == before)
        #expect(try PatientRepository.load(db, id: id)?.revision == before)
        try PatientRepository.updateProfile(db, id: id, profile: Self.profile, at: 3)
        #expect(try #require(try PatientRepository.revision(db, id: id)) > before)
        var other = Self.profile
        other.studyId = "REV-3"
        let otherId = try PatientRepository.insert(db, profile: other, by: "staff:t", at: 4)
        #expect(try PatientRepository.revision(db, id: otherId) == 0)
    }
}
