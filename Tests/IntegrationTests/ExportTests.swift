import Foundation
import Testing
import HTJSON

/// The CSV exports over real HTTP against the real daemon (docs/product.md, "Exports and
/// statistics", "CSV"), read back with a strict RFC 4180 parser (Support/RFC4180.swift).
@Suite(.serialized) struct ExportTests {
    static let scenario = Result { try ExportScenario() }

    func scenario() throws -> ExportScenario { try Self.scenario.get() }

    @Test func theDaysCSVIsRFC4180WithREDCapColumnsAndOneRowPerDayWithData() throws {
        let s = try scenario()
        let r = try s.download("/v1/export/days.csv", token: s.viewer)
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "text/csv; charset=utf-8; header=present")
        #expect(r.headers["content-disposition"] == "attachment; filename=\"hyponatrack-days-all.csv\"")
        let text = String(decoding: r.body, as: UTF8.self)
        #expect(text.hasPrefix("record_id,site,dm_date,dm_pod,weight_morning_kg,"), "\(text.prefix(200))")
        #expect(text.hasSuffix("\r\n"))
        let (header, rows) = try RFC4180.table(r.body)
        #expect(header.contains("emergency_symptoms___drowsiness") && header.contains("sym_m_time")
                && Array(header.suffix(2)) == ["daily_monitoring_complete", "reasons_text"])
        #expect(!header.contains("redcap_repeat_instrument"))
        // EXP-A: POD 0 (lab only), 10, 11; EXP-B: POD 11; EXP-C: nothing.
        #expect(rows.map { "\($0["record_id"]!) \($0["dm_pod"]!)" } == ["EXP-A 0", "EXP-A 10", "EXP-A 11", "EXP-B 11"])
        let lab = rows[0], green = rows[1], yellow = rows[2], red = rows[3]
        #expect(lab["dm_date"] == Study.date(-12))
        #expect(lab["lab_sodium_min"] == "140.0" && lab["lab_sodium_count"] == "1")
        #expect(green["weight_morning_kg"] == "80.0" && green["alert_level"] == "green")
        // The symptom entry was sent as 08:00 Berlin time; EXP-A lives in London.
        #expect(green["sym_m_time"] == "\(Study.date(-2)) 07:00", "\(green["sym_m_time"] ?? "")")
        #expect(green["sym_m_vas"] == "9" && green["morning_check_complete"] == "1")
        #expect(yellow["weight_morning_kg"] == "82.0" && yellow["fluid_intake_ml"] == "2000" && yellow["alert_level"] == "yellow")
        let codes = Set((yellow["alert_reasons"] ?? "").split(separator: ",").map(String.init))
        #expect(codes.isSuperset(of: ["weight_gain_pct", "fluid_excess"]), "\(codes)")
        #expect(text.contains("\"\(yellow["alert_reasons"]!)\""), "several reason codes: a quoted field")
        // Beside the codes, the reasons in clinical words (82 kg against 80; 2,000 mL against 1,500).
        let words = yellow["reasons_text"] ?? ""
        #expect(words.contains("Weight +2.5 % above baseline (yellow from +") && words.contains("Fluid intake 33.3 % over the limit"),
                "\(words)")
        #expect(green["reasons_text"] == "")
        #expect(red["emergency_symptoms___drowsiness"] == "1" && red["emergency_symptoms___seizure"] == "0")
        #expect(red["alert_level"] == "red" && red["weight_morning_kg"] == "")
    }

    @Test func onePatientsExportHoldsOnlyTheirDays() throws {
        let s = try scenario()
        let r = try s.download("/v1/patients/exp-b/export.csv")
        #expect(r.status == 200)
        #expect(r.headers["content-disposition"] == "attachment; filename=\"hyponatrack-days-EXP-B.csv\"")
        let (_, rows) = try RFC4180.table(r.body)
        #expect(rows.map { $0["record_id"] } == ["EXP-B"])
        let none = try s.download("/v1/patients/EXP-C/export.csv")
        #expect(try RFC4180.parse(none.body).count == 1, "a header and no rows")
    }

    @Test func theAlertsCSVHasTheAlertLogColumnsAndTheStaffNamesAsStoredNeutralisedOnlyForExcel() throws {
        let s = try scenario()
        let r = try s.download("/v1/export/alerts.csv")
        #expect(r.status == 200)
        let (header, rows) = try RFC4180.table(r.body)
        #expect(header == ["record_id", "site", "alert_id", "alert_kind", "alert_log_level", "alert_date", "alert_pod", "alert_log_reasons",
                           "alert_opened_at", "alert_ack_at", "alert_ack_role", "alert_resolved_at", "alert_resolution_na",
                           "alert_min_to_ack", "alert_min_to_resolve", "alert_ack_note", "alert_resolution_note", "alert_contact_attempts",
                           "alert_reached_at", "alert_last_date", "alert_log_complete", "alert_ack_by", "alert_resolved_by",
                           "reasons_text"])
        #expect(rows.count == 2)
        let a = rows[0], b = rows[1]
        #expect(a["record_id"] == "EXP-A" && a["alert_kind"] == "evaluation" && a["alert_log_level"] == "yellow")
        #expect((a["reasons_text"] ?? "").hasPrefix("Weight +2.5 % above baseline"), "\(a["reasons_text"] ?? "")")
        #expect(a["alert_date"] == Study.date(-1) && a["alert_pod"] == "11")
        // Times in the patient's zone (London), as the API's instants say.
        #expect(a["alert_opened_at"] == ExportScenario.local(s.alertA["openedAt"], "Europe/London"))
        #expect(a["alert_ack_at"] == ExportScenario.local(s.alertA["acknowledgedAt"], "Europe/London"))
        #expect(a["alert_resolved_at"] == ExportScenario.local(s.alertA["resolvedAt"], "Europe/London"))
        #expect(a["alert_ack_role"] == "nurse" && a["alert_resolution_na"] == "138.0" && a["alert_log_complete"] == "2")
        // `-ward` could be a formula (a cell reference): RFC 4180 keeps it as stored, the Excel
        // variant writes it as text.
        #expect(a["alert_ack_by"] == "-ward" && a["alert_resolved_by"] == "night.nurse")
        let excel = String(decoding: try s.download("/v1/export/alerts.csv?dialect=excel").body, as: UTF8.self)
        #expect(excel.contains(";'-ward;night.nurse;"), "\(excel)")
        let toAck = ExportScenario.minutes(s.alertA["openedAt"], s.alertA["acknowledgedAt"]) ?? -1
        #expect(a["alert_min_to_ack"] == String(format: "%.1f", toAck))
        #expect(b["record_id"] == "EXP-B" && b["alert_log_level"] == "red" && b["alert_log_complete"] == "1")
        #expect(b["alert_opened_at"] == ExportScenario.local(s.alertB["openedAt"], "Europe/Berlin"))
        #expect(b["alert_ack_at"] == "" && b["alert_ack_by"] == "" && b["alert_resolved_by"] == "" && b["alert_min_to_ack"] == "")
        let one = try RFC4180.table(try s.download("/v1/export/alerts.csv?studyId=EXP-B").body)
        #expect(one.rows.map { $0["record_id"] } == ["EXP-B"])
    }

    @Test func exportsAreForStaffOnlyAndAnUnknownPatientIsNotFound() throws {
        let s = try scenario()
        #expect(try s.download("/v1/patients/EXP-A/export.csv", token: s.tokenA).status == 403)
        #expect(try s.download("/v1/export/days.csv", token: s.tokenA).status == 403)
        #expect(try s.d.request(.get, "/v1/export/alerts.csv").status == 401)
        let missing = try s.d.request(.get, "/v1/patients/NOBODY/export.csv", token: s.d.adminToken)
        #expect(missing.status == 404 && missing.errorCode == "not_found")
        #expect(try s.d.request(.get, "/v1/export/alerts.csv?studyId=NOBODY", token: s.d.adminToken).status == 404)
        let bad = try s.d.request(.get, "/v1/export/alerts.csv?studyId=a%20b", token: s.d.adminToken)
        #expect(bad.status == 400 && bad.errorField == "studyId")
    }

    /// A filtered request used to get every patient's rows: the whole cohort's data for one name.
    @Test func theDaysCSVForOneStudyIDHoldsOnlyThatPatientAndRefusesAnUnknownOrMalformedOne() throws {
        let s = try scenario()
        let one = try RFC4180.table(try s.download("/v1/export/days.csv?studyId=EXP-B", token: s.viewer).body)
        #expect(one.rows.map { "\($0["record_id"]!) \($0["dm_pod"]!)" } == ["EXP-B 11"])
        let missing = try s.d.request(.get, "/v1/export/days.csv?studyId=NOBODY", token: s.d.adminToken)
        #expect(missing.status == 404 && missing.errorCode == "not_found")
        let bad = try s.d.request(.get, "/v1/export/days.csv?studyId=bad%20id!", token: s.d.adminToken)
        #expect(bad.status == 400 && bad.errorField == "studyId")
    }

    @Test func everyExportIsAudited() throws {
        let s = try scenario()
        _ = try s.download("/v1/patients/EXP-A/export.csv", token: s.viewer)
        let trail = try s.d.request(.get, "/v1/audit?subject=EXP-A&limit=1000", token: s.d.adminToken)
        #expect(trail.text.contains("\"action\":\"export.days\""), "\(trail.text.suffix(600))")
        #expect(trail.text.contains("\"actor\":\"staff:reader\""))
        _ = try s.download("/v1/export/alerts.csv", token: s.viewer)
        let all = try s.d.request(.get, "/v1/audit?limit=1000", token: s.d.adminToken)
        #expect(all.text.contains("\"action\":\"export.alerts\""))
    }
}
