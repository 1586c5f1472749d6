import Foundation
import Testing
import SQLite
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The upgrade to alert episodes (`v17_alert_episodes`): a patient's unresolved alerts of one
/// kind are merged into the newest — it covers all their days from the first, holds the highest
/// level — the others resolved as `merged into #N` with `merged_into`, audited, no hook event,
/// both queued for REDCap's `alert_log` again; other alerts cover their one day.
@Suite struct AlertEpisodeUpgradeTests {
    @Test func unresolvedAlertsOfOneKindAreMergedIntoTheNewestAndAuditedWithoutAHookEvent() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("htv16-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try StoreSchemaTests.database(directory, through: "v15_evaluations_without_level")
        defer { db.close() }
        let t: Int64 = 1_773_043_200_000
        try db.transaction(.immediate) {
            for id in ["A-1", "B-2"] { _ = try PatientRepository.insert(db, profile: MapperFixture.profile(id), by: "staff:nina", at: t) }
            // a red (acknowledged) and two later yellows, unresolved; a resolved one; a missing check-in.
            // B-2: one open yellow.
            let rows: [(Int64, String, String, String, String)] = [
                (1, "2026-03-09", "evaluation", "red", "acknowledged"), (1, "2026-03-10", "evaluation", "yellow", "open"),
                (1, "2026-03-11", "evaluation", "yellow", "open"), (1, "2026-03-08", "evaluation", "yellow", "resolved"),
                (1, "2026-03-10", "missing_checkin", "yellow", "open"), (2, "2026-03-09", "evaluation", "yellow", "open"),
            ]
            for (n, (patient, date, kind, level, state)) in rows.enumerated() {
                try db.execute("""
                    INSERT INTO alerts (patient_id, date, kind, level, reasons, pod, state, opened_at, ladder_started_at, updated_at, instance)
                    VALUES (?, ?, ?, ?, ?, 7, ?, ?, ?, ?, ?)
                    """, [patient, date, kind, level, "[{\"code\":\"c\(n)\",\"level\":\"\(level)\"}]", state, t, t, t, n + 1])
            }
        }
        #expect(try Schema.migrator(through: "v17_alert_episodes").migrate(db) == ["v16_contacts", "v17_alert_episodes"])

        let alerts = try db.query("SELECT id, state, level, resolve_note, merged_into, date, last_date FROM alerts ORDER BY id").map {
            "\(try $0.int64(0)) \(try $0.string(1)) \(try $0.string(2)) \(try $0.optionalString(3) ?? "-") "
                + "\(try $0.optionalInt64(4).map(String.init) ?? "-") \(try $0.string(5))…\(try $0.string(6))"
        }
        #expect(alerts == [
            "1 resolved red merged into #3 3 2026-03-09…2026-03-09",
            "2 resolved yellow merged into #3 3 2026-03-10…2026-03-10",
            "3 open red - - 2026-03-09…2026-03-11",
            "4 resolved yellow - - 2026-03-08…2026-03-08",
            "5 open yellow - - 2026-03-10…2026-03-10",
            "6 open yellow - - 2026-03-09…2026-03-09",
        ])
        #expect(try AlertRepository.days(db, alertId: 3).values.sorted { $0.date < $1.date }.map { "\($0.date) \($0.level)" }
                == ["2026-03-09 red", "2026-03-10 yellow", "2026-03-11 yellow"])
        #expect(Set(try #require(try AlertRepository.load(db, id: 3)).reasons.map(\.code)) == ["c0", "c1", "c2"])
        #expect(try db.query("SELECT subject, details FROM audit_log WHERE action = 'alert.merge' ORDER BY seq").map {
            "\(try $0.string(0)) \(try $0.string(1))"
        } == ["A-1 {\"alertId\":1,\"mergedInto\":3}", "A-1 {\"alertId\":2,\"mergedInto\":3}"])
        #expect(try db.query("SELECT alert_id FROM alert_log_backfill ORDER BY alert_id").map { try $0.int64(0) } == [1, 2, 3, 4, 5, 6],
                "every alert (v16_contacts queues them all again; the merged and the kept among them)")
        #expect(try db.query("SELECT id FROM hook_outbox").isEmpty, "no hook event for the merge")
        #expect(try AlertRepository.timings(db, patientId: nil).count == 4, "merged alerts are left out of the times and the burden")

        // One unresolved alert per patient and kind from now on; a new kind continues the numbering.
        #expect(throws: (any Error).self) {
            try db.transaction(.immediate) {
                _ = try AlertRepository.open(db, patientId: 1, date: LocalDate("2026-03-12")!, kind: .evaluation, level: .yellow,
                                             reasons: [], pod: 10, at: t)
            }
        }
        let next = try db.transaction(.immediate) {
            try AlertRepository.open(db, patientId: 1, date: LocalDate("2026-03-12")!, kind: .noData2d, level: .red, reasons: [],
                                     pod: 10, at: t)
        }
        #expect(try AlertRepository.logEntry(db, id: next)?.instance == 6)
    }
}
