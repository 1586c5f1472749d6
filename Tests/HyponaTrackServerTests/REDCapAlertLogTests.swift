import Foundation
import Testing
import HTJSON
import SQLite
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// One alert's lifecycle over the daemon's database, as Alerting queues it: the real
/// repositories, the real outbox, the mapper with the Berlin study zone.
final class AlertLogRig {
    let store: DaemonDatabase
    let outbox: SyncOutbox
    let alerting: Alerting

    /// 2026-03-09T08:00:07Z: 09:00:07 in Berlin.
    static let t0: Int64 = MapperFixture.enrolledAt + 7_000

    init(mapper: REDCapMapper, sync: Bool = true) throws {
        store = try DaemonDatabase()
        outbox = SyncOutbox(mapper: mapper, wake: {})
        alerting = Alerting(ladder: EscalationLadder(), hooks: [], outbox: sync ? outbox : nil) { _ in "low" }
    }

    func write<T>(_ job: (Connection) throws -> T) throws -> T { try store.database.write(job) }

    func patient(_ studyId: String) throws -> PatientRecord {
        try write { db in
            let id = try PatientRepository.insert(db, profile: MapperFixture.profile(studyId), by: "staff:nina", at: Self.t0)
            return try PatientRepository.load(db, id: id)!
        }
    }

    func staff(_ name: String, _ role: Role) throws {
        try write { db in _ = try StaffRepository.insert(db, name: name, role: role, by: "system", at: Self.t0) }
    }

    static func reason(_ code: String, _ level: Level) -> StoredReason {
        StoredReason(code: code, level: level, value: 1, threshold: 1)
    }

    /// Raises an `evaluation` alert on 2026-03-09 (POD 7) `minutes` after t0; returns the live alert's id.
    @discardableResult
    func raise(_ p: PatientRecord, _ level: Level, _ reasons: [StoredReason], minutes: Double, date: String = "2026-03-09",
               kind: AlertKind = .evaluation) throws -> Int64 {
        try write { db in
            try alerting.raise(db, p, date: LocalDate(date)!, kind: kind, level: level, reasons: reasons,
                               pod: p.profile.pod(at: LocalDate(date)!), at: Self.at(minutes))
            return try AlertRepository.live(db, patientId: p.id, kind: kind)!.id
        }
    }

    static func at(_ minutes: Double) -> Int64 { t0 + Int64((minutes * 60_000).rounded()) }

    /// The queued `alert_log` rows, by record and instance.
    func queued() throws -> [String: [Int: [String: String]]] {
        try store.database.read { db in
            var out: [String: [Int: [String: String]]] = [:]
            for r in try db.query("SELECT record, instance, payload FROM sync_outbox WHERE instrument = 'alert_log'") {
                guard case .object(let o) = try JSONParser.parse(Array(try r.string("payload").utf8)) else { continue }
                var row: [String: String] = [:]
                for (k, v) in o.members { if case .string(let s) = v { row[k] = s } }
                out[try r.string("record"), default: [:]][try r.int("instance")] = row
            }
            return out
        }
    }

    func outboxCount() throws -> Int {
        try store.database.read { try $0.scalar("SELECT COUNT(*) FROM sync_outbox", as: Int.self) ?? 0 }
    }
}

extension REDCapMapperTests {
    // MARK: alert_log

    @Test func anAlertLogRowFollowsOpenAcknowledgeWorsenAndResolve() throws {
        let rig = try AlertLogRig(mapper: f.mapper)
        try rig.staff("nina", .nurse)
        try rig.staff("adam", .admin)
        let p = try rig.patient("UKE-0042")
        func row() throws -> [String: String] { try #require(try rig.queued()["UKE-0042"]?[1]) }

        // Opened yellow at 09:00:07 Berlin: what happens next is not known yet, so it is blank.
        let id = try rig.raise(p, .yellow, [AlertLogRig.reason("weight_gain_pct", .yellow)], minutes: 0)
        var r = try row()
        let opened: [String: String] = [
            "record_id": "UKE-0042", "redcap_repeat_instrument": "alert_log", "redcap_repeat_instance": "1",
            "alert_id": String(id), "alert_kind": "evaluation", "alert_log_level": "yellow", "alert_date": "2026-03-09",
            "alert_pod": "7", "alert_log_reasons": "weight_gain_pct", "alert_opened_at": "2026-03-09 09:00:07",
            "alert_ack_at": "", "alert_ack_role": "", "alert_resolved_at": "", "alert_resolution_na": "",
            "alert_min_to_ack": "", "alert_min_to_resolve": "", "alert_ack_note": "", "alert_resolution_note": "",
            "alert_contact_attempts": "0", "alert_reached_at": "", "alert_last_date": "2026-03-09", "alert_log_complete": "1",
        ]
        #expect(r == opened)
        let mapped = f.mapper.alertLog(try #require(try rig.store.database.read { try AlertRepository.logEntry($0, id: id) }))
        #expect(mapped.map(\.0) == ["record_id", "redcap_repeat_instrument", "redcap_repeat_instance"]
                + f.dictionary.columns(form: REDCapFields.alertLogForm).filter { $0 != "record_id" }, "dictionary order")
        checkRow(mapped, form: REDCapFields.alertLogForm, label: "opened")

        // Acknowledged by a nurse 12.5 minutes later.
        try rig.write { try rig.alerting.acknowledge($0, id: id, by: "staff:nina", note: "called", at: AlertLogRig.at(12.5)) }
        r = try row()
        #expect(r["alert_ack_at"] == "2026-03-09 09:12:37" && r["alert_ack_role"] == "nurse" && r["alert_min_to_ack"] == "12.5")
        #expect(r["alert_resolved_at"] == "" && r["alert_min_to_resolve"] == "" && r["alert_log_complete"] == "1")

        // A worsening to red reopens the alert but keeps the first acknowledgement and its minutes.
        try rig.raise(p, .red, [AlertLogRig.reason("symptom_score", .red)], minutes: 30)
        r = try row()
        #expect(r["alert_log_level"] == "red" && r["alert_log_reasons"] == "symptom_score,weight_gain_pct")
        #expect(r["alert_ack_at"] == "2026-03-09 09:12:37" && r["alert_ack_role"] == "nurse" && r["alert_min_to_ack"] == "12.5")
        #expect(r["alert_opened_at"] == "2026-03-09 09:00:07")
        let reopened = try #require(try rig.store.database.read { try AlertRepository.view($0, id: id) })
        #expect(reopened.state == .open && reopened.acknowledged == nil, "the worsening cleared the live acknowledgement")

        // An admin acknowledges again: the first acknowledgement stays what REDCap holds.
        try rig.write { try rig.alerting.acknowledge($0, id: id, by: "staff:adam", note: nil, at: AlertLogRig.at(40)) }
        r = try row()
        #expect(r["alert_ack_at"] == "2026-03-09 09:12:37" && r["alert_ack_role"] == "nurse" && r["alert_min_to_ack"] == "12.5")

        // Resolved 95.5 minutes after opening with a sodium of 131.
        try rig.write {
            try rig.alerting.resolve($0, id: id, by: "staff:adam", note: "labs fine", sodium: 131, at: AlertLogRig.at(95.5))
        }
        r = try row()
        var resolved = opened
        resolved["alert_log_level"] = "red"
        resolved["alert_log_reasons"] = "symptom_score,weight_gain_pct"
        resolved["alert_ack_at"] = "2026-03-09 09:12:37"
        resolved["alert_ack_role"] = "nurse"
        resolved["alert_min_to_ack"] = "12.5"
        resolved["alert_resolved_at"] = "2026-03-09 10:35:37"
        resolved["alert_resolution_na"] = "131.0"
        resolved["alert_min_to_resolve"] = "95.5"
        resolved["alert_log_complete"] = "2"
        resolved["alert_ack_note"] = "called"
        resolved["alert_resolution_note"] = "labs fine"
        #expect(r == resolved)
        checkRow(f.mapper.alertLog(try #require(try rig.store.database.read { try AlertRepository.logEntry($0, id: id) })),
                 form: REDCapFields.alertLogForm, label: "resolved")
        // Each change replaced the waiting row: one row for the alert, not five.
        #expect(try rig.outboxCount() == 1)
    }

    @Test func contactsAboutAnAlertCountItsAttemptsAndTheFirstThatSpokeToThePatientIsItsReach() throws {
        let rig = try AlertLogRig(mapper: f.mapper)
        let p = try rig.patient("UKE-0043")
        let id = try rig.raise(p, .red, [AlertLogRig.reason("emergency_symptom", .red)], minutes: 0)
        func contact(_ outcome: ContactOutcome, minutes: Double, alert: Int64?) throws -> [String: String] {
            try rig.write { db in
                _ = try ContactRepository.insert(db, patientId: p.id, alertId: alert, outcome: outcome, note: nil, by: "staff:nina",
                                                 at: AlertLogRig.at(minutes))
                try rig.outbox.enqueueAlertLog(db, alertId: id, at: AlertLogRig.at(minutes))
            }
            return try #require(try rig.queued()["UKE-0043"]?[1])
        }
        #expect(try rig.queued()["UKE-0043"]?[1]?["alert_contact_attempts"] == "0")
        var r = try contact(.noAnswer, minutes: 5, alert: id)
        #expect(r["alert_contact_attempts"] == "1" && r["alert_reached_at"] == "")
        r = try contact(.voicemail, minutes: 10, alert: id)
        #expect(r["alert_contact_attempts"] == "2" && r["alert_reached_at"] == "")
        r = try contact(.patientCalled, minutes: 20.25, alert: id)
        #expect(r["alert_contact_attempts"] == "3" && r["alert_reached_at"] == "2026-03-09 09:20:22")
        r = try contact(.reached, minutes: 30, alert: id)
        #expect(r["alert_contact_attempts"] == "4" && r["alert_reached_at"] == "2026-03-09 09:20:22", "the first reach stays")
        r = try contact(.reached, minutes: 40, alert: nil)
        #expect(r["alert_contact_attempts"] == "4", "a contact about no alert is not one of its attempts")
        checkRow(f.mapper.alertLog(try #require(try rig.store.database.read { try AlertRepository.logEntry($0, id: id) })),
                 form: REDCapFields.alertLogForm, label: "contacted")
    }

    @Test func instancesCountThePatientsAlertsAndNeverCollideWithDays() throws {
        let rig = try AlertLogRig(mapper: f.mapper)
        let a = try rig.patient("A-1"), b = try rig.patient("B-2")
        try rig.raise(a, .yellow, [AlertLogRig.reason("weight_gain_pct", .yellow)], minutes: 0, date: "2026-03-03")
        try rig.raise(b, .red, [AlertLogRig.reason("emergency_symptom", .red)], minutes: 1, date: "2026-03-03")
        try rig.raise(a, .yellow, [AlertLogRig.reason("missing_checkin", .yellow)], minutes: 2, date: "2026-03-04", kind: .missingCheckin)
        // The same day and kind while live is the same alert (a worsening), not a new instance.
        try rig.raise(a, .red, [AlertLogRig.reason("sodium", .red)], minutes: 3, date: "2026-03-03")
        let queued = try rig.queued()
        #expect(queued["A-1"].map { $0.keys.sorted() } == [1, 2] && queued["B-2"].map { $0.keys.sorted() } == [1])
        #expect(queued["A-1"]?[1]?["alert_date"] == "2026-03-03" && queued["A-1"]?[1]?["alert_pod"] == "1")
        #expect(queued["A-1"]?[2]?["alert_kind"] == "missing_checkin" && queued["A-1"]?[2]?["alert_log_reasons"] == "missing_checkin")
        // POD 1's daily row and alert 1 share a record and an instance number, not an outbox row.
        try rig.write { db in
            try rig.outbox.enqueueDaily(db, a, day: DailyEntry(date: LocalDate("2026-03-03")!, weightMorningKg: 80), alert: nil,
                                        snapshot: f.rules, at: AlertLogRig.t0)
        }
        #expect(try rig.outboxCount() == 4)
        #expect(try rig.queued()["A-1"]?[1]?["alert_log_level"] == "red")
    }

    @Test func withTheSyncOffNoAlertLogRowIsQueued() throws {
        let rig = try AlertLogRig(mapper: f.mapper, sync: false)
        let p = try rig.patient("OFF-1")
        let id = try rig.raise(p, .red, [AlertLogRig.reason("sodium", .red)], minutes: 0)
        try rig.write { try rig.alerting.acknowledge($0, id: id, by: "staff:nobody", note: nil, at: AlertLogRig.at(1)) }
        #expect(try rig.outboxCount() == 0)
        // The first acknowledgement is still kept; an unknown actor has no role.
        let entry = try #require(try rig.store.database.read { try AlertRepository.logEntry($0, id: id) })
        #expect(entry.firstAcknowledgedAt == AlertLogRig.at(1) && entry.firstAcknowledgedRole == nil && entry.instance == 1)
    }

    @Test func alertLogDatetimesHaveSecondsInTheStudyZone() {
        let m = f.mapper
        #expect(m.datetimeSeconds(milliseconds: MapperFixture.enrolledAt) == "2026-03-09 09:00:00")
        #expect(m.datetimeSeconds(milliseconds: MapperFixture.enrolledAt + 59_250) == "2026-03-09 09:00:59")
        // Summer time (CEST) and across midnight.
        #expect(m.datetimeSeconds(milliseconds: Int64(Berlin.instant("2026-07-01T22:30:05Z") * 1000)) == "2026-07-02 00:30:05")
        #expect(m.minutes(from: 0, to: 90_000) == "1.5" && m.minutes(from: 0, to: 0) == "0.0" && m.minutes(from: 0, to: nil) == "")
        #expect(m.minutes(from: 0, to: 3_600_000 * 26) == "1560.0")
    }

    @Test func longitudinalAlertLogRowsGoToTheDailyEvent() throws {
        let lf = try MapperFixture(baselineEvent: "baseline_arm_1", dailyEvent: "daily_arm_1")
        let entry = AlertLogEntry(alertId: 9, studyId: "L-1", instance: 3, kind: .noData2d, level: .red, date: LocalDate("2026-03-12")!,
                                  pod: 10, reasonCodes: ["no_data_2d"], openedAt: MapperFixture.enrolledAt, firstAcknowledgedAt: nil,
                                  firstAcknowledgedRole: nil, resolvedAt: nil, resolveSodium: nil)
        let row = lf.mapper.alertLog(entry)
        #expect(row.prefix(4).map(\.0) == ["record_id", "redcap_event_name", "redcap_repeat_instrument", "redcap_repeat_instance"])
        #expect(row["redcap_event_name"] == "daily_arm_1" && row["redcap_repeat_instance"] == "3" && row["alert_kind"] == "no_data_2d")
        checkRow(row, form: REDCapFields.alertLogForm, label: "longitudinal alert_log", events: true)
    }
}
