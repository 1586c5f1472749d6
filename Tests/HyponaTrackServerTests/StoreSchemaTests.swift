import Foundation
import Testing
import Crypto
import HTJSON
import HyponaTrackCore
import SQLite
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Migrations are applied by name, so a shipped one must keep its SQL: a database created before
/// the DDL moved beside its tables neither re-runs nor misses a statement.
@Suite struct StoreSchemaTests {
    @Test func v3AlertsStillRunsTheShippedSQLByteForByte() {
        // SHA-256 of AlertsSchema.v1 as shipped (commit a1ff6a1), when it held all five tables.
        #expect(Crypto.hex(Crypto.sha256(Array(Schema.v3Alerts.utf8)))
                == "80b350d1dd202aee3403a5b190810a6c5df8f11c14dba5a07e50a4113776df86")
    }

    @Test func v1AuditStillRunsTheShippedSQLByteForByte() {
        // SHA-256 of AuditSchema.v1 as shipped, before it was split into the table and the triggers.
        #expect(Crypto.hex(Crypto.sha256(Array(AuditSchema.v1.utf8)))
                == "22636f856a2e41a76d7974d53d095412f1c6db98c1d356a98d967d0f5d2659a9")
    }

    @Test func reopeningAMigratedDatabaseAppliesNothing() throws {
        let store = try DaemonDatabase()
        let connection = try Connection(path: store.database.path)
        defer { connection.close() }
        #expect(try Schema.migrator().appliedMigrations(in: connection).last == Schema.migrations.last?.name)
        #expect(try Schema.migrator().migrate(connection).isEmpty)
    }

    /// A database as the previous release left it: migrations up to `v3_alerts`.
    static func v3Database(_ directory: URL) throws -> Connection { try database(directory, through: "v3_alerts") }

    /// A database in `directory` as the release whose last migration is `last` left it.
    static func database(_ directory: URL, through last: String) throws -> Connection {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let connection = try Connection(path: directory.appendingPathComponent("\(last).sqlite").path)
        connection.attach(AuditKey.forTests)
        #expect(try Schema.migrator(through: last).migrate(connection).last == last)
        return connection
    }

    @Test func upgradingNumbersOldAlertsRecoversTheirFirstAcknowledgementAndKeepsTheOutbox() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("htv4-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try Self.v3Database(directory)
        defer { db.close() }
        let t: Int64 = 1_773_043_200_000
        try db.transaction(.immediate) {
            for id in ["A-1", "B-2"] {
                _ = try PatientRepository.insert(db, profile: MapperFixture.profile(id), by: "staff:nina", at: t)
            }
            _ = try StaffRepository.insert(db, name: "nina", role: .nurse, by: "system", at: t)
            _ = try StaffRepository.insert(db, name: "adam", role: .admin, by: "system", at: t)
            // alert 1 acknowledged by nina, then worsened (acknowledged_at cleared) and acknowledged by adam;
            // B-2: alert 2 open; A-1: alert 3 acknowledged by adam, never worsened.
            for (patient, date, state, ackAt, ackBy) in [(1, "2026-03-09", "acknowledged", t + 900_000, "staff:adam"),
                                                        (2, "2026-03-09", "open", nil, nil),
                                                        (1, "2026-03-10", "acknowledged", t + 120_000, "staff:adam")]
                as [(Int64, String, String, Int64?, String?)] {
                try db.execute("""
                    INSERT INTO alerts (patient_id, date, kind, level, reasons, pod, state, opened_at, ladder_started_at,
                                        acknowledged_at, acknowledged_by, updated_at)
                    VALUES (?, ?, 'evaluation', 'red', '[]', 7, ?, ?, ?, ?, ?, ?)
                    """, [patient, date, state, t, t, ackAt, ackBy, t])
            }
            for (at, actor, alert) in [(t + 60_000, "staff:nina", 1), (t + 900_000, "staff:adam", 1), (t + 120_000, "staff:adam", 3)] {
                _ = try AuditLog.append(db, at: at, actor: actor, action: .alertAcknowledge, subject: "A-1",
                                        details: ["alertId": .number(Double(alert)), "note": nil])
            }
            for (record, instance) in [("A-1", 0), ("A-1", 3)] {
                try db.execute("""
                    INSERT INTO sync_outbox (record, record_key, instance, payload, enqueued_at, updated_at, version)
                    VALUES (?, lower(?), ?, '{}', ?, ?, 4)
                    """, [record, record, instance, t, t])
            }
        }
        #expect(try Schema.migrator(through: "v4_alert_log").migrate(db) == ["v4_alert_log"])

        let alerts = try db.query("SELECT id, instance, first_acknowledged_at, first_acknowledged_role FROM alerts ORDER BY id").map {
            [try $0.int64(0), try $0.int64(1), try $0.optionalInt64(2) ?? -1, try $0.optionalString(3) == nil ? 0 : 1]
        }
        #expect(alerts == [[1, 1, t + 60_000, 1], [2, 1, -1, 0], [3, 2, t + 120_000, 1]])
        let roles = try db.query("SELECT first_acknowledged_role FROM alerts ORDER BY id").map { try $0.optionalString(0) }
        #expect(roles == ["nurse", nil, "admin"], "the first acknowledger's role, from the staff table")
        let outbox = try db.query("SELECT record, instrument, instance, version FROM sync_outbox ORDER BY id").map {
            "\(try $0.string(0)) \(try $0.string(1)) \(try $0.int(2)) v\(try $0.int(3))"
        }
        #expect(outbox == ["A-1 patient_baseline 0 v4", "A-1 daily_monitoring 3 v4"])
        #expect(try db.query("SELECT alert_id FROM alert_log_backfill ORDER BY alert_id").map { try $0.int64(0) } == [1, 2, 3])
        // The alert_log row as the server writes it now also reads the columns of v16_contacts,
        // v17_alert_episodes and v19_sites (the patient's DAG; the later migrations in between
        // concern other tables).
        try db.transaction(.immediate) {
            try db.execute(ContactsSchema.v1)
            try db.execute(AlertEpisodesSchema.v1)
            try db.execute(SitesSchema.v1)
        }

        // The first start with the sync configured queues them once, beside the daily row of the same number.
        let mapper = REDCapMapper(studyZone: ZoneRules(identifier: "Europe/Berlin")!, baselineEvent: nil, dailyEvent: nil)
        let outboxQueue = SyncOutbox(mapper: mapper, wake: {})
        #expect(try db.transaction(.immediate) { try outboxQueue.enqueueAlertBackfill(db, at: t) } == 3)
        #expect(try db.transaction(.immediate) { try outboxQueue.enqueueAlertBackfill(db, at: t) } == 0)
        let queued = try db.query("SELECT record, instance FROM sync_outbox WHERE instrument = 'alert_log' ORDER BY id").map {
            "\(try $0.string(0))#\(try $0.int(1))"
        }
        #expect(queued == ["A-1#1", "B-2#1", "A-1#2"])
        let first = try #require(try AlertRepository.logEntry(db, id: 1))
        #expect(mapper.alertLog(first).first { $0.0 == "alert_min_to_ack" }?.1 == "1.0")
        // A new alert continuing the numbering after the upgrade to episodes: AlertEpisodeUpgradeTests.
    }

    @Test func upgradingGivesEachDayThePatientsOwnLastSubmissionFromTheAuditTrail() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("htv14-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try Self.database(directory, through: "v13_import_proposal_versions")
        defer { db.close() }
        let t: Int64 = 1_773_043_200_000
        try db.transaction(.immediate) {
            let a = try PatientRepository.insert(db, profile: MapperFixture.profile("A-1"), by: "staff:nina", at: t)
            let b = try PatientRepository.insert(db, profile: MapperFixture.profile("B-2"), by: "staff:nina", at: t)
            // A-1 sent 03-09 twice, then a nurse corrected it; 03-10 holds only a nurse's correction.
            // B-2 sent 03-10 later than anything of A-1's.
            for (patient, date, updated) in [(a, "2026-03-09", t + 9_000), (a, "2026-03-10", t + 8_000), (b, "2026-03-10", t + 7_000)] {
                try db.execute("INSERT INTO days (patient_id, date, created_at, updated_at) VALUES (?, ?, ?, ?)", [patient, date, t, updated])
            }
            for (at, actor, action, subject, date) in [
                (t + 1_000, "patient:A-1", AuditAction.daySubmit, "A-1", "2026-03-09"),
                (t + 3_000, "patient:A-1", .daySubmit, "A-1", "2026-03-09"),
                (t + 9_000, "staff:nina", .dayCorrect, "A-1", "2026-03-09"),
                (t + 8_000, "staff:nina", .dayCorrect, "A-1", "2026-03-10"),
                (t + 7_000, "patient:B-2", .daySubmit, "B-2", "2026-03-10"),
            ] {
                _ = try AuditLog.append(db, at: at, actor: actor, action: action, subject: subject,
                                        details: ["date": .string(date), "changed": [:]])
            }
        }
        #expect(try Schema.migrator(through: "v14_days_submitted_at").migrate(db) == ["v14_days_submitted_at"])

        let days = try db.query("""
            SELECT p.study_id, d.date, d.submitted_at FROM days d JOIN patients p ON p.id = d.patient_id ORDER BY p.study_id, d.date
            """).map { "\(try $0.string(0)) \(try $0.string(1)) \(try $0.optionalInt64(2).map { String($0 - t) } ?? "-")" }
        #expect(days == ["A-1 2026-03-09 3000", "A-1 2026-03-10 -", "B-2 2026-03-10 7000"])
        #expect(try DayRepository.lastSubmissions(db) == [1: t + 3_000, 2: t + 7_000], "the board's last submission")
    }

    @Test func upgradingKeepsEveryEvaluationAndLetsADayThatIsNotEvaluatedBeStoredWithoutALevel() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("htv15-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try Self.database(directory, through: "v14_days_submitted_at")
        defer { db.close() }
        let t: Int64 = 1_773_043_200_000
        let insert = """
            INSERT INTO evaluations (patient_id, date, pod, level, reasons, risk_score, risk_class, factor, rules_version, cause,
                                     evaluated_at)
            VALUES (?, '2026-03-09', 7, ?, '[]', 1, 'low', 0.9, 'v-old', 'submission', ?)
            """
        let patient = try db.transaction(.immediate) { () throws -> Int64 in
            let id = try PatientRepository.insert(db, profile: MapperFixture.profile("U-14"), by: "staff:nina", at: t)
            try db.execute(insert, [id, "yellow", t])
            return id
        }
        #expect(throws: (any Error).self) { try db.transaction(.immediate) { try db.execute(insert, [patient, nil, t]) } }

        #expect(try Schema.migrator(through: "v15_evaluations_without_level").migrate(db) == ["v15_evaluations_without_level"])
        let kept = try #require(try EvaluationRepository.latest(db, patientId: patient, date: LocalDate("2026-03-09")!))
        #expect(kept.id == 1 && kept.level == .yellow && kept.rulesVersion == "v-old" && kept.evaluatedAt == t)
        let engine = EscalationEngine(rules: MapperFixture.shipped)
        let unevaluated = engine.evaluate(profile: MapperFixture.profile("U-14"), days: [], date: LocalDate("2026-03-10")!)
        try db.transaction(.immediate) {
            _ = try EvaluationRepository.insert(db, patientId: patient, unevaluated, cause: "submission", at: t + 1)
        }
        let stored = try #require(try EvaluationRepository.latest(db, patientId: patient, date: LocalDate("2026-03-10")!))
        #expect(stored.level == nil && stored.reasons.isEmpty && stored.rulesVersion == MapperFixture.shipped.version)
        #expect(try EvaluationRepository.latestPerDate(db, patientId: patient).count == 2)
    }
    @Test func upgradingKeepsEachAlertsFirstAcknowledgementNoteAndQueuesEveryAlertLogRowAgain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("htv16-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try Self.database(directory, through: "v15_evaluations_without_level")
        defer { db.close() }
        let t: Int64 = 1_773_043_200_000
        try db.transaction(.immediate) {
            _ = try PatientRepository.insert(db, profile: MapperFixture.profile("C-16"), by: "staff:nina", at: t)
            // Alerts as release 15 stored them (one per day and kind).
            for (n, (date, state)) in [("2026-03-09", "acknowledged"), ("2026-03-10", "open")].enumerated() {
                try db.execute("""
                    INSERT INTO alerts (patient_id, date, kind, level, reasons, pod, state, opened_at, ladder_started_at, updated_at, instance)
                    VALUES (1, ?, 'evaluation', 'red', '[]', 7, ?, ?, ?, ?, ?)
                    """, [date, state, t, t, t, n + 1])
            }
            for (at, note) in [(t + 60_000, "rang, no answer" as String?), (t + 120_000, "spoke to her")] {
                _ = try AuditLog.append(db, at: at, actor: "staff:nina", action: .alertAcknowledge, subject: "C-16",
                                        details: ["alertId": 1, "note": .string(note)])
            }
            try db.execute("DELETE FROM alert_log_backfill", [])
        }
        #expect(try Schema.migrator(through: "v16_contacts").migrate(db) == ["v16_contacts"])
        let notes = try db.query("SELECT first_acknowledge_note FROM alerts ORDER BY id").map { try $0.optionalString(0) }
        #expect(notes == ["rang, no answer", nil], "the first acknowledgement's note, from the audit trail")
        #expect(try db.query("SELECT alert_id FROM alert_log_backfill ORDER BY alert_id").map { try $0.int64(0) } == [1, 2])
        #expect(try Schema.migrator(through: "v17_alert_episodes").migrate(db) == ["v17_alert_episodes"])
        let entry = try #require(try AlertRepository.logEntry(db, id: 1))
        #expect(entry.acknowledgeNote == "rang, no answer" && entry.contactAttempts == 0 && entry.reachedAt == nil)
    }
}
