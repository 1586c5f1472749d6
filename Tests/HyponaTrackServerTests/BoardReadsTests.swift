import HyponaTrackCore
import SQLite
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The ward board reads every patient's current evaluation and extension PODs in one query
/// each (`EvaluationRepository+Board.swift`); they must answer what the per-patient reads
/// answer, patient by patient. Surgery 2026-03-02 for everyone: the extension asks about
/// POD 10–21, read on 2026-03-11 (POD 9) … 2026-03-24 (POD 22).
@Suite struct BoardReadsTests {
    static let t: Int64 = 1_773_043_200_000
    let rules = MapperFixture.shipped.reminders

    /// Five patients: evaluations out of date order, an alert only, a yellow whose date lies
    /// outside the asked dates (as after a surgery-date change), nothing, a red on POD 15.
    func seeded(_ store: DaemonDatabase) throws -> [PatientRecord] {
        try store.database.write { db in
            let ids = try ["B-A", "B-B", "B-C", "B-D", "B-E"].map {
                try PatientRepository.insert(db, profile: MapperFixture.profile($0), by: "staff:nina", at: Self.t)
            }
            let evaluation = """
                INSERT INTO evaluations (patient_id, date, pod, level, reasons, risk_score, risk_class, factor, rules_version, cause,
                                         evaluated_at)
                VALUES (?, ?, ?, ?, '[]', 1, 'low', 1.0, 'v1', 'submission', ?)
                """
            for (patient, date, pod, level) in [(ids[0], "2026-03-13", 11, "green"), (ids[0], "2026-03-05", 3, "yellow"),
                                                (ids[0], "2026-03-12", 10, "yellow"), (ids[0], "2026-03-13", 11, "red"),
                                                (ids[2], "2026-03-30", 10, "red"), (ids[2], "2026-03-11", 9, "yellow"),
                                                (ids[2], "2026-03-14", 12, nil), (ids[4], "2026-03-17", 15, "red")] as [(Int64, String, Int, String?)] {
                _ = try db.execute(evaluation, [patient, date, pod, level, Self.t])
            }
            _ = try AlertRepository.open(db, patientId: ids[1], date: LocalDate("2026-03-13")!, kind: .missingCheckin, level: .yellow,
                                         reasons: [], pod: 11, at: Self.t)
            return try PatientRepository.all(db)
        }
    }

    @Test func everyonesCurrentEvaluationIsEachPatientsOwn() throws {
        let store = try DaemonDatabase()
        let patients = try seeded(store)
        try store.database.read { db in
            let batch = try EvaluationRepository.current(db, patientIds: patients.map(\.id))
            for p in patients {
                #expect(batch[p.id]?.id == (try EvaluationRepository.current(db, patientId: p.id))?.id, "\(p.profile.studyId)")
            }
            #expect(batch[patients[0].id]?.level == .red, "the latest date, then the latest evaluation of it")
            #expect(Set(try EvaluationRepository.current(db, patientIds: [patients[0].id, patients[3].id]).keys) == [patients[0].id],
                    "only the patients asked, and none for a patient without evaluations")
            #expect(try EvaluationRepository.current(db, patientIds: []).isEmpty)
        }
    }

    @Test func everyonesExtensionPODsAreEachPatientsOwn() throws {
        let store = try DaemonDatabase()
        let patients = try seeded(store)
        try store.database.read { db in
            let batch = try EvaluationRepository.alertPODs(db, patients: patients, rules: rules)
            for p in patients {
                #expect((batch[p.id] ?? []).sorted() == (try EvaluationRepository.alertPODs(db, patient: p, rules: rules)).sorted(),
                        "\(p.profile.studyId)")
            }
            #expect(batch[patients[0].id]?.sorted() == [10, 11], "a yellow on POD 10, a red on 11; POD 3 is not asked")
            #expect(batch[patients[1].id] == [11], "an alert counts")
            #expect(batch[patients[2].id] == nil, "a date outside the asked dates, a POD before 10, a day not evaluated")
            #expect(batch[patients[4].id] == [15])
        }
    }

    @Test func everyonesWindowDecidesTheirDateAsTheirOwnWindowDoes() throws {
        let store = try DaemonDatabase()
        let patients = try seeded(store)
        try store.database.read { db in
            for date in ["2026-03-10", "2026-03-20"].map({ LocalDate($0)! }) {
                let windows = try MonitoringWindow.stored(db, deciding: patients.map { ($0, date) }, rules: rules)
                for (p, window) in zip(patients, windows) {
                    let full = try MonitoringWindow.stored(db, p, rules: rules)
                    #expect(window.contains(date) == full.contains(date), "\(p.profile.studyId) \(date)")
                    #expect(window.first == full.first)
                }
            }
            let late = try MonitoringWindow.stored(db, deciding: patients.map { ($0, LocalDate("2026-03-20")!) }, rules: rules)
            #expect(late.map(\.extended) == [true, true, false, false, true], "the full window past POD 14")
        }
    }
}
