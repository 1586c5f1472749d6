import Foundation
import HTJSON
import HTTPClient
@testable import HyponaTrackWeb

extension SiteMatrixTests {
    /// The study the matrix runs against: sites `a` and `b`, a patient of each with a red alert
    /// and a pending FHIR proposal, the five roles with tokens and signed-in console sessions.
    final class Matrix {
        let d: TestDaemon
        var tokens: [Role: String] = [:]
        var consoles: [Role: ConsoleClient] = [:]
        var alerts: [String: Int] = [:]
        var proposals: [String: Int] = [:]
        var labs: [String: Int] = [:]
        static let password = "matrix-password-1"

        init() throws {
            d = try TestDaemon()
            for code in ["a", "b"] {
                let r = try d.request(.post, "/v1/sites", token: d.adminToken, body: ["code": .string(code), "name": .string("Site \(code)")])
                guard r.status == 201 else { throw TestFailure("site \(code): \(r.text)") }
            }
            let staff: [(Role, String, String, JSONValue)] = [
                (.nurseA, "nurse.a", "nurse", ["a"]), (.viewerA, "viewer.a", "viewer", ["a"]), (.nurseB, "nurse.b", "nurse", ["b"]),
                (.nurseAll, "nurse.all", "nurse", .null)]
            for (role, name, kind, sites) in staff {
                var body = JSONObject([("name", .string(name)), ("role", .string(kind))])
                if sites == .null { body["allSites"] = true } else { body["sites"] = sites }
                let r = try d.request(.post, "/v1/staff", token: d.adminToken, body: .object(body))
                guard r.status == 201, case .string(let token)? = r["token"] else { throw TestFailure("staff \(name): \(r.text)") }
                tokens[role] = token
                try ConsoleClient.setPassword(d, name, Self.password)
                consoles[role] = ConsoleClient(d)
                try consoles[role]!.signIn(name, Self.password)
            }
            tokens[.admin] = d.adminToken
            try ConsoleClient.setPassword(d, "bootstrap-admin", Self.password)
            consoles[.admin] = ConsoleClient(d)
            try consoles[.admin]!.signIn("bootstrap-admin", Self.password)
            for (site, studyId) in SiteMatrixTests.patients {
                let e = try d.request(.post, "/v1/patients", token: d.adminToken,
                                      body: Study.profile(studyId, [("site", .string(site.lowercased()))]))
                guard e.status == 201 else { throw TestFailure("enrol \(studyId): \(e.text)") }
                let lab = try d.request(.post, "/v1/patients/\(studyId)/labs", token: d.adminToken, body: ["sodium": 124])
                labs[site] = Hooks.int(lab["labId"])
                let fhir = try d.request(.post, "/v1/imports/fhir", token: d.adminToken,
                                         raw: JSONSerializer.bytes(ImportFlowTests.bundle([ImportFlowTests.sodium("o-\(site)", studyId,
                                                                                                                  date: Study.date(-1))])),
                                         contentType: "application/fhir+json")
                guard fhir.status == 200 else { throw TestFailure("fhir \(studyId): \(fhir.text)") }
            }
            for item in try list("/v1/alerts?open=false") { alerts[site(of: item)] = Hooks.int(item["id"]) }
            for item in try list("/v1/proposals", member: "proposals") { proposals[site(of: item)] = Hooks.int(item["id"]) }
            guard alerts.count == 2, proposals.count == 2 else { throw TestFailure("alerts \(alerts), proposals \(proposals)") }
        }

        /// A list's items (an array, or a page's `member`).
        func list(_ path: String, member: String? = nil) throws -> [JSONObject] {
            var json = try d.request(.get, path, token: d.adminToken).json
            if let member, case .object(let o) = json { json = o[member] ?? .null }
            guard case .array(let items) = json else { return [] }
            return items.compactMap { if case .object(let o) = $0 { o } else { nil } }
        }

        func site(of item: JSONObject) -> String { item["studyId"] == .string(SiteMatrixTests.patients["A"]!) ? "A" : "B" }

        /// The template with the patient of `site`'s records (or, `unknown`, records that do not exist).
        func path(_ template: String, site: String, unknown: Bool = false) throws -> String {
            let values: [String: String] = [
                "{studyId}": unknown ? "NOSUCH-1" : SiteMatrixTests.patients[site]!,
                "{alertId}": unknown ? "999999" : String(alerts[site]!), "{proposalId}": unknown ? "999999" : String(proposals[site]!),
                "{labId}": String(labs[site] ?? 1), "{date}": Study.date(-1), "{list}": "symptoms", "{itemId}": "x",
                "{name}": "nobody", "{code}": "main", "{eventId}": "999999"]
            return values.reduce(template) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
        }

        /// The route's request as the role sends it: a bearer token to the API, the session's
        /// cookie (and CSRF token) to the console.
        func send(_ route: Entry, _ path: String, role: Role) throws -> TestDaemon.Response {
            if route.isPage {
                let console = consoles[role]!
                if route.method == "POST" { _ = try console.get("/console/alerts"); return try console.post(path, [:]) }
                return try console.get(path)
            }
            let method = HTTPClientRequest.Method(rawValue: route.method)!
            return try d.request(method, path, token: tokens[role], body: method == .get || method == .delete ? nil : .object(JSONObject()))
        }

        /// What a person could read in the answer: the text, or a PDF's words (pdftotext).
        func readable(_ r: TestDaemon.Response) -> String {
            guard r.headers["content-type"]?.hasPrefix("application/pdf") == true else { return r.text }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("matrix-\(UUID().uuidString).pdf")
            defer { try? FileManager.default.removeItem(at: file) }
            guard (try? Data(r.bytes).write(to: file)) != nil,
                  let text = try? CLIRunner.run("/usr/bin/pdftotext", [file.path, "-"]) else { return "pdftotext failed" }
            return text.stdout
        }

        /// Status and body with the record's study ID and ids swapped for placeholders, so another
        /// site's record and a missing one can be compared.
        func normalised(_ r: TestDaemon.Response, site: String?) -> String {
            var text = "\(r.status) \(r.text)"
            let swaps: [(String, String)] = site.map { s in
                [(SiteMatrixTests.patients[s]!, "ID"), ("alert \(alerts[s]!)", "alert N"), ("proposal \(proposals[s]!)", "proposal N"),
                 ("/\(alerts[s]!)/", "/N/"), ("/\(proposals[s]!)/", "/N/"), ("%2F\(alerts[s]!)%2F", "%2FN%2F"),
                 ("%2F\(proposals[s]!)%2F", "%2FN%2F")]
            } ?? [("NOSUCH-1", "ID"), ("alert 999999", "alert N"), ("proposal 999999", "proposal N"), ("/999999/", "/N/"),
                  ("%2F999999%2F", "%2FN%2F")]
            for (from, to) in swaps { text = text.replacingOccurrences(of: from, with: to) }
            return text
        }
    }
}
