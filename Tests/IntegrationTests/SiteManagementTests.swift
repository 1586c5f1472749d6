import Foundation
import Testing
import HTJSON

/// Sites managed over the real API and CLI (docs/product.md, third round, S): refusals name
/// their field and write nothing; a site's numbers reach its patients' web check-in.
@Suite struct SiteManagementTests {
    typealias App = PatientAppTests

    /// Everything a refused request could have written.
    static func written(_ d: TestDaemon) throws -> String {
        let sites = try d.request(.get, "/v1/sites", token: d.adminToken).text
        let staff = try d.request(.get, "/v1/staff", token: d.adminToken).text
        let patients = try d.request(.get, "/v1/patients", token: d.adminToken).text
        let audit = try d.request(.get, "/v1/audit?limit=1000", token: d.adminToken).text
        return [sites, staff, patients, audit].joined(separator: "\n")
    }

    @Test func badSiteInputIsRefusedNamingTheFieldAndWritesNothing() throws {
        let d = try TestDaemon()
        _ = try Study.enrollAndActivate(d, "SM-1")
        #expect(try d.request(.post, "/v1/sites", token: d.adminToken, body: ["code": "a", "name": "Site A"]).status == 201)
        let before = try Self.written(d)
        let cases: [(String, String, JSONValue, Int, String)] = [
            ("POST", "/v1/sites", ["code": "Muc", "name": "x"], 400, "code"),
            ("POST", "/v1/sites", ["code": "mu c", "name": "x"], 400, "code"),
            ("POST", "/v1/sites", ["code": "b", "name": "x", "timeZone": "Mars/Olympus"], 400, "timeZone"),
            ("POST", "/v1/sites", ["code": "a", "name": "again"], 409, "code"),
            ("POST", "/v1/staff", ["name": "ad.min", "role": "admin", "sites": ["a"]], 400, "site"),
            ("POST", "/v1/staff", ["name": "n.one", "role": "nurse"], 400, "site"),
            ("POST", "/v1/staff", ["name": "n.two", "role": "nurse", "sites": ["zz"]], 400, "site"),
            ("POST", "/v1/staff", ["name": "n.three", "role": "nurse", "sites": ["Main"]], 400, "site"),
            ("POST", "/v1/patients/SM-1/transfer", ["site": "main"], 400, "site"),
            ("POST", "/v1/patients/SM-1/transfer", ["site": "nowhere"], 400, "site"),
            ("POST", "/v1/patients", Study.profile("SM-2", [("site", "nowhere")]), 400, "site"),
            ("POST", "/v1/patients", Study.profile("SM-3"), 400, "site"),
            ("POST", "/v1/patients", Study.profile("sm-1", [("site", "a")]), 409, "studyId"),
            ("DELETE", "/v1/sites/main", .null, 409, "code"),
        ]
        for (method, path, body, status, field) in cases {
            let r = try d.request(.init(rawValue: method)!, path, token: d.adminToken, body: body == .null ? nil : body)
            #expect(r.status == status && r.errorField == field, "\(method) \(path) \(body) → \(r.status) \(r.text)")
        }
        let taken = try d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("sm-1", [("site", "a")]))
        #expect(taken.errorCode == "conflict" && taken.text.contains("study ID already in use"), "\(taken.text)")
        #expect(try Self.written(d) == before, "nothing written")
        // The CLI prints the refusal and exits non-zero.
        let cli = try CLIRunner.run(["site", "add", "Bad Code", "--name", "x"], server: d.baseURL, token: d.adminToken)
        #expect(cli.status == 1 && cli.stderr.contains("code"), "\(cli.stderr)")
        let added = try CLIRunner.run(["site", "add", "zrh", "--name", "Zürich", "--emergency-number", "144"], server: d.baseURL,
                                      token: d.adminToken)
        #expect(added.status == 0, "\(added.stderr)")
        let list = try CLIRunner.run(["site", "list"], server: d.baseURL, token: d.adminToken)
        #expect(list.stdout.contains("zrh") && list.stdout.contains("Zürich") && list.stdout.contains("144"), "\(list.stdout)")
        let moved = try CLIRunner.run(["transfer", "SM-1", "--site", "zrh"], server: d.baseURL, token: d.adminToken)
        #expect(moved.status == 0 && moved.stdout.contains("from main to zrh"), "\(moved.stdout)\(moved.stderr)")
        #expect(try d.request(.delete, "/v1/sites/zrh", token: d.adminToken).status == 409, "zrh holds SM-1")
        let held = try CLIRunner.run(["site", "remove", "zrh"], server: d.baseURL, token: d.adminToken)
        #expect(held.status != 0 && held.stderr.contains("transfer them first"), "\(held.stderr)")
        let removed = try CLIRunner.run(["site", "remove", "main"], server: d.baseURL, token: d.adminToken)
        #expect(removed.status == 0 && removed.stdout.contains("Removed the site main"), "main holds nobody now: \(removed.stderr)")
        #expect(try d.request(.get, "/v1/sites", token: d.adminToken).text.contains("\"main\"") == false)
    }

    /// The audit rows about a patient follow the patient (docs/operations.md §4.1a): after a
    /// transfer away the old site's nurse keeps only her own actions about them; the new site's
    /// nurse sees the patient's whole history.
    @Test func aTransferredPatientsAuditRowsFollowThePatient() throws {
        let d = try TestDaemon()
        for code in ["a", "b"] {
            #expect(try d.request(.post, "/v1/sites", token: d.adminToken, body: ["code": .string(code), "name": "Site"]).status == 201)
        }
        let nurseA = try Study.staff(d, "nurse.a", role: "nurse", sites: ["a"]), nurseB = try Study.staff(d, "nurse.b", role: "nurse", sites: ["b"])
        _ = try Study.enrollAndActivate(d, "AUD-1", [("site", "a")])
        #expect(try d.request(.post, "/v1/patients/AUD-1/labs", token: nurseA, body: ["sodium": 140]).status == 201)
        func rows(_ token: String) throws -> [JSONObject] {
            guard case .array(let items) = try d.request(.get, "/v1/audit?limit=1000", token: token).json else { return [] }
            return items.compactMap { if case .object(let o) = $0, o["subject"] == "AUD-1" { o } else { nil } }
        }
        #expect(try rows(nurseA).count >= 2 && rows(nurseB).isEmpty, "before: site a's rows")
        #expect(try d.request(.post, "/v1/patients/AUD-1/transfer", token: d.adminToken, body: ["site": "b"]).status == 200)
        let left = try rows(nurseA)
        #expect(!left.isEmpty && left.allSatisfy { $0["actor"] == "staff:nurse.a" }, "only her own actions: \(left)")
        let history = try rows(nurseB)
        #expect(history.count == (try rows(d.adminToken)).count && history.contains { $0["actor"] == "staff:nurse.a" }, "\(history)")
    }

    @Test func theWebCheckInShowsTheClinicAndEmergencyNumbersOfThePatientsSite() throws {
        let config = try ConfigDirectory(server: #"{"app": {"clinicPhone": "+49 30 1234 567", "emergencyNumber": "999"}}"#)
        let d = try TestDaemon(configFile: config.serverFile)
        #expect(try d.request(.post, "/v1/sites", token: d.adminToken,
                              body: ["code": "a", "name": "Site A", "clinicPhone": "+41 44 555 0100", "emergencyNumber": "144"]).status == 201)
        let (atA, _) = try App.activate(d, "NUM-A", code: try App.enroll(d, "NUM-A", [("site", "a")]))
        let (atMain, _) = try App.activate(d, "NUM-M", code: try App.enroll(d, "NUM-M", [("site", "main")]))
        for c in [atA, atMain] {
            #expect(try d.request(.put, "/v1/me/days/\(Study.date(0))", token: WebCheckInTests.token(c), body: ["vomitingEpisodes": 3]).status == 200)
        }
        let a = try atA.get("/app/").text, main = try atMain.get("/app/").text
        #expect(a.contains("href=\"tel:+41445550100\">+41 44 555 0100</a>") && a.contains("href=\"tel:144\">144</a>"), "site A's numbers")
        #expect(!a.contains("+49 30 1234 567") && !a.contains("tel:999"), "not the study's")
        #expect(main.contains("href=\"tel:+49301234567\">+49 30 1234 567</a>") && main.contains("href=\"tel:999\">999</a>"), "the study's")
    }
}
