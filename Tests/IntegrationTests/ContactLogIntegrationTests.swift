import Foundation
import Testing
import HTJSON
import HTTPClient

/// The contact log over real HTTP against the real daemon (docs/product.md, third round, C,
/// "Contact log"): logging and listing, the contacts CSV, the clinical report (pdftotext) and the
/// `hyponatrack contact` / `contacts` commands through the real binary.
///
/// CT-A (Europe/London) has a red day yesterday (drowsiness) and so an open alert; `anna.nurse`
/// logs `no_answer` about it (which acknowledges it), then `patient_called` about it, and the
/// admin logs `other` about no alert. CT-B and CT-C have no contacts until a test adds them.
@Suite(.serialized) struct ContactLogIntegrationTests {
    struct Scenario: Sendable {
        let d: TestDaemon
        let nurse: String
        let viewer: String
        let alertId: Int
        /// The daemon's answers to the three contacts, in the order logged.
        let contacts: [JSONObject]

        init() throws {
            let d = try TestDaemon()
            self.d = d
            nurse = try Study.staff(d, "anna.nurse", role: "nurse")
            viewer = try Study.staff(d, "reader", role: "viewer")
            let token = try Study.enrollAndActivate(d, "CT-A", [("timeZone", "Europe/London")])
            for id in ["CT-B", "CT-C"] { _ = try Study.enrollAndActivate(d, id) }
            try ExportScenario.expect(d.request(.put, "/v1/me/days/\(Study.date(-1))", token: token,
                                                body: ["emergencySymptoms": ["drowsiness"]]), 200, level: "red")
            let alerts = try d.request(.get, "/v1/alerts?open=true", token: d.adminToken)
            guard case .array(let list) = alerts.json, case .object(let a)? = list.first, case .number(let id)? = a["id"] else {
                throw TestFailure("no alert: \(alerts.text)")
            }
            alertId = Int(id)
            var contacts: [JSONObject] = []
            let bodies: [(String, JSONValue)] = [
                (nurse, ["outcome": "no_answer", "note": "rang twice, then \"voicemail\"", "alertId": .int(alertId)]),
                (nurse, ["outcome": "patient_called", "alertId": .int(alertId)]),
                (d.adminToken, ["outcome": "other", "note": "letter sent"]),
            ]
            for (token, body) in bodies {
                let r = try ExportScenario.expect(d.request(.post, "/v1/patients/CT-A/contacts", token: token, body: body), 201)
                guard case .object(let o) = r.json else { throw TestFailure("no contact: \(r.text)") }
                contacts.append(o)
            }
            self.contacts = contacts
        }

        func download(_ path: String, token: String? = nil) throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
            try d.download(path, token: token)
        }
    }

    static let scenario = Result { try Scenario() }
    func scenario() throws -> Scenario { try Self.scenario.get() }

    @Test func theFirstContactAboutTheOpenAlertAcknowledgedItAndTheListIsNewestFirst() throws {
        let s = try scenario()
        #expect(s.contacts.map { $0["acknowledgedAlert"] } == [true, false, false])
        let alert = try s.d.request(.get, "/v1/alerts", token: s.viewer)
        guard case .array(let list) = alert.json, case .object(let a)? = list.first else { throw TestFailure(alert.text) }
        #expect(a["state"] == "acknowledged" && a["acknowledgedBy"] == "staff:anna.nurse")
        let listed = try s.d.request(.get, "/v1/patients/CT-A/contacts", token: s.viewer)
        guard case .array(let items) = listed.json else { throw TestFailure(listed.text) }
        let outcomes: [JSONValue?] = items.map { item -> JSONValue? in
            guard case .object(let o) = item else { return nil }
            return o["outcome"]
        }
        #expect(outcomes == ["other", "patient_called", "no_answer"])
        #expect(try s.d.request(.post, "/v1/patients/CT-A/contacts", token: s.viewer, body: ["outcome": "reached"]).status == 403)
        let audit = try s.d.request(.get, "/v1/audit?subject=CT-A", token: s.d.adminToken).text
        #expect(audit.components(separatedBy: "\"contact.add\"").count - 1 == 3, "\(audit.suffix(1500))")
    }

    @Test func theContactsCSVHasTheContractColumnsOneRowPerContactInThePatientsTimeZone() throws {
        let s = try scenario()
        let all = try s.download("/v1/export/contacts.csv", token: s.viewer)
        #expect(all.status == 200)
        let (header, rows) = try RFC4180.table(all.body)
        #expect(header == ["record_id", "site", "contact_id", "contact_at", "outcome", "alert_id", "staff", "note"])
        let mine = rows.filter { $0["record_id"] == "CT-A" }
        #expect(mine.map { $0["outcome"] } == ["no_answer", "patient_called", "other"])
        for (row, contact) in zip(mine, s.contacts) {
            #expect(row["contact_id"] == String(Int(SyncRig.number(contact["id"]) ?? -1)))
            #expect(row["contact_at"] == ExportScenario.local(contact["at"], "Europe/London"), "the patient's zone")
        }
        #expect(mine.map { $0["alert_id"] } == [String(s.alertId), String(s.alertId), ""])
        #expect(mine.map { $0["staff"] } == ["anna.nurse", "anna.nurse", "bootstrap-admin"])
        #expect(mine.map { $0["note"] } == ["rang twice, then \"voicemail\"", "", "letter sent"])
        let none = try RFC4180.table(try s.download("/v1/export/contacts.csv?studyId=ct-b").body)
        #expect(none.header == header && none.rows.isEmpty)
        #expect(try s.download("/v1/export/contacts.csv?studyId=NOBODY").status == 404)
        #expect(try s.d.request(.get, "/v1/export/contacts.csv").status == 401)
    }

    @Test func theReportShowsTheAlertsContactAttemptsAndEveryContactInEitherLanguage() throws {
        let s = try scenario()
        let english = try PopplerReport(try ReportScenario.report(s.d, "CT-A").body).text()
        for phrase in ["Acknowledged Contacts", "2 attempts", "no answer", "patient called", "Contacts with the patient",
                       "rang twice, then \"voicemail\"", "letter sent", "anna.nurse", "#\(s.alertId)"] {
            #expect(english.contains(phrase), "\(phrase)")
        }
        let german = try PopplerReport(try ReportScenario.report(s.d, "CT-A", query: "?lang=de").body).text()
        for phrase in ["Bestätigt Kontakte", "2 Versuche", "nicht erreicht", "Patient hat angerufen", "Kontakte mit dem Patienten",
                       "Sonstiges", "Erfasst von"] {
            #expect(german.contains(phrase), "\(phrase)")
        }
        #expect(!german.contains("no answer") && !german.contains("patient_called"))
        let empty = try PopplerReport(try ReportScenario.report(s.d, "CT-B").body).text()
        #expect(empty.contains("No contacts logged."))
    }

    @Test func theCLILogsAndListsContactsAndRefusesAnUnknownOutcomeOrAnotherPatientsAlert() throws {
        let s = try scenario()
        func cli(_ args: [String]) throws -> CLIRunner.Result { try CLIRunner.run(args, server: s.d.baseURL, token: s.nurse) }
        let logged = try cli(["contact", "CT-C", "--outcome", "voicemail", "--note", "left a message"])
        #expect(logged.status == 0 && logged.stdout.hasPrefix("Logged contact ") && logged.stdout.contains("with CT-C: voicemail."),
                "\(logged.stdout) \(logged.stderr)")
        let json = try cli(["contact", "CT-C", "--outcome", "reached", "--json"])
        #expect(json.status == 0 && json.stdout.contains("\"acknowledgedAlert\""))
        let listed = try cli(["contacts", "CT-C"])
        #expect(listed.status == 0 && listed.stdout.contains("OUTCOME") && listed.stdout.contains("left a message"))
        #expect(listed.stdout.range(of: "reached")!.lowerBound < listed.stdout.range(of: "voicemail")!.lowerBound, "newest first")
        let unknown = try cli(["contact", "CT-C", "--outcome", "busy"])
        #expect(unknown.status == 64 && unknown.stderr.contains("--outcome"), "\(unknown.stderr)")
        let missing = try cli(["contact", "CT-C"])
        #expect(missing.status == 64 && missing.stderr.contains("--outcome is required"))
        let other = try cli(["contact", "CT-C", "--outcome", "reached", "--alert", String(s.alertId)])
        #expect(other.status == 1 && other.stderr.contains("no alert \(s.alertId)"), "\(other.stderr)")
        let viewer = try CLIRunner.run(["contact", "CT-C", "--outcome", "reached"], server: s.d.baseURL, token: s.viewer)
        #expect(viewer.status == 77)
        let csv = try cli(["export", "contacts", "--patient", "CT-C"])
        #expect(csv.status == 0 && csv.stdout.hasPrefix("record_id,site,contact_id,contact_at,outcome,alert_id,staff,note\r\n"))
        #expect(csv.stdout.contains(",voicemail,,anna.nurse,left a message\r\n"))
    }
}
