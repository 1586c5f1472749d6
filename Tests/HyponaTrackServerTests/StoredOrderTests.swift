import Foundation
import HyponaTrackCore
import SQLite
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// `DayRepository.storedOrder` puts a merged day in the order the store reads it back in (the
/// `DayWindowCache` keeps that day instead of reading it again): checked against the store
/// itself over random patches — new items before, between and after the stored ones, items
/// whose time changes, times with different UTC offsets and fractions, ids that tie on time.
@Suite struct StoredOrderTests {
    static let date = LocalDate("2026-03-09")!
    static let profile = PatientProfile(studyId: "ORD-1", surgeryDate: LocalDate("2026-03-02")!, timeZone: "Europe/Berlin",
                                        age: 50, sex: .male, bmi: 27, baselineWeightKg: 80, baselineReactionTimeMs: 600)

    static func symptom(_ id: String, _ time: String) -> SymptomEntry {
        SymptomEntry(id: id, time: Timestamp(time)!, slot: .morning, nausea: 1, headache: 0, fatigue: 0, confusion: 0,
                     muscleCramps: 0, vas: 10)
    }

    static let times = ["2026-03-09T07:00:00+01:00", "2026-03-09T06:30:00Z", "2026-03-09T08:00:00.250+01:00",
                        "2026-03-09T08:00:00+01:00", "2026-03-09T09:15:00+02:00", "2026-03-09T12:00:00+01:00",
                        "2026-03-09T07:00:00+01:00", "2026-03-09T21:45:10+01:00"]

    @Test func aMergedDayIsInTheOrderTheStoreReadsItBackIn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try Connection(path: directory.appendingPathComponent("t.sqlite").path)
        defer { db.close() }
        db.attach(AuditKey.forTests)
        _ = try Schema.migrator().migrate(db)
        let patientId = try PatientRepository.insert(db, profile: Self.profile, by: "staff:t", at: 1)
        var random = SystemRandomNumberGenerator()
        for round in 0..<60 {
            let before = try DayRepository.load(db, patientId: patientId, date: Self.date)
            var patch = DayPatch()
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                // A new id, or one already stored (its time may change).
                let id = before.symptoms.isEmpty || Bool.random(using: &random)
                    ? "s\(round)-\(Int.random(in: 0..<1000, using: &random))"
                    : before.symptoms.randomElement(using: &random)!.id
                patch.symptoms.append(Self.symptom(id, Self.times.randomElement(using: &random)!))
            }
            let merged = patch.apply(to: before)
            let predicted = try #require(DayRepository.storedOrder(merged, patch: patch))
            try DayRepository.save(db, patientId: patientId, day: merged, patch: patch, byPatient: true, at: Int64(round + 2))
            let stored = try DayRepository.load(db, patientId: patientId, date: Self.date)
            #expect(predicted.symptoms == stored.symptoms, "round \(round): \(patch.symptoms.map(\.id))")
        }
        #expect(try DayRepository.load(db, patientId: patientId, date: Self.date).symptoms.count > 20)
    }
}
