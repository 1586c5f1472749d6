import Foundation
import Testing
import HyponaTrackCore
import SQLite
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport

/// `v20_outcomes` as shipped stored shadow results in three columns of `evaluations`;
/// `v21_shadow_evaluations` moves each into `shadow_evaluations` and drops the columns, keeping
/// every evaluation and every shadow result.
@Suite struct ShadowUpgradeTests {
    @Test func upgradingMovesEachShadowResultIntoItsOwnTableAndDropsTheColumns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("htv21-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try StoreSchemaTests.database(directory, through: "v20_outcomes")
        defer { db.close() }
        let t: Int64 = 1_773_043_200_000
        let patient = try db.transaction(.immediate) { () throws -> Int64 in
            let id = try PatientRepository.insert(db, profile: MapperFixture.profile("U-21"), by: "staff:nina", at: t)
            try db.execute("""
                INSERT INTO evaluations (patient_id, date, pod, level, reasons, risk_score, risk_class, factor, rules_version, cause,
                                         evaluated_at, shadow_level, shadow_reasons, shadow_rules_version)
                VALUES (?, '2026-03-09', 7, 'green', '[]', 1, 'low', 0.9, 'live', 'submission', ?, 'red', '[{"code":"confusion","level":"red"}]', 'shadow'),
                       (?, '2026-03-10', 8, 'green', '[]', 1, 'low', 0.9, 'live', 'submission', ?, NULL, NULL, NULL)
                """, [id, t, id, t + 1])
            return id
        }
        #expect(try Schema.migrator().migrate(db) == ["v21_shadow_evaluations"])
        let columns = try db.query("SELECT name FROM pragma_table_info('evaluations')").map { try $0.string(0) }
        #expect(!columns.contains { $0.hasPrefix("shadow_") } && columns.count == 12, "\(columns)")
        #expect(try EvaluationRepository.latestPerDate(db, patientId: patient).count == 2)
        let moved = try ShadowRepository.latest(db, version: "shadow")
        #expect(moved.since == t)
        let day = try #require(moved.days[patient]?[LocalDate("2026-03-09")!])
        #expect(day.level == .red && day.reasons == ["confusion"] && day.version == "shadow")
        #expect(moved.days[patient]?.count == 1)
    }
}
