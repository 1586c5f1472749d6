import Foundation
import Testing
import HTJSON
import HTTPClient

/// `?dialect=excel` on the CSV downloads over real HTTP against the real daemon (docs/product.md,
/// "Exports and statistics"; third round, "C — wording"): a byte order mark, `;`, a decimal
/// comma in German only, a `'` before text a spreadsheet would run as a formula (never before a
/// number), the RFC 4180 default unchanged, and 400 for a value it does not know. The files are
/// read back with Python's csv module, an independent reader.
@Suite(.serialized) struct ExcelExportTests {
    /// XL-A (Berlin, surgery 12 days ago): POD 10 with 80.5 kg, urine SG 1.012 and a reaction test
    /// of 591 ms against a 600 ms baseline (a slowing of −1.5 %); a contact whose note starts
    /// with `=`. Nurse `-ward` (a name a spreadsheet would read as a formula) logged it.
    struct Scenario: Sendable {
        let d: TestDaemon
        let nurse: String

        init() throws {
            d = try TestDaemon()
            nurse = try Study.staff(d, "-ward", role: "nurse")
            let token = try Study.enrollAndActivate(d, "XL-A", surgeryDaysAgo: 12)
            let pod10 = Study.date(-2)
            let test: JSONValue = ["id": "r1", "time": .string(Study.time(pod10, "09:00")), "medianMs": 591, "meanMs": 600, "errors": 0]
            try ExportScenario.expect(d.request(.put, "/v1/me/days/\(pod10)", token: token,
                                                body: ["weightMorningKg": 80.5, "urineSG": 1.012, "reactionTests": [test]]), 200)
            try ExportScenario.expect(d.request(.post, "/v1/patients/XL-A/contacts", token: nurse,
                                                body: ["outcome": "reached", "note": "=1+2 said fine"]), 201)
        }

        func download(_ path: String) throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) { try d.download(path) }
    }

    static let scenario = Result { try Scenario() }
    func scenario() throws -> Scenario { try Self.scenario.get() }

    /// The file read by Python's csv module with `delimiter`; `utf-8-sig` drops a byte order mark.
    static func python(_ bytes: [UInt8], delimiter: String) throws -> (header: [String], rows: [[String: String]]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("excel-\(UUID().uuidString).csv")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import csv, json, sys
            with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:
                json.dump(list(csv.reader(f, delimiter=sys.argv[2], strict=True)), sys.stdout)
            """
        let r = try CLIRunner.run("/usr/bin/python3", ["-c", script, file.path, delimiter])
        guard r.status == 0, case .array(let records) = try JSONParser.parse(Array(r.stdout.utf8)) else {
            throw TestFailure("python csv: \(r.stderr)")
        }
        let table: [[String]] = records.map { record in
            guard case .array(let fields) = record else { return [] }
            return fields.map { if case .string(let s) = $0 { s } else { "" } }
        }
        guard let header = table.first else { throw TestFailure("no header") }
        return (header, table.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) })
    }

    /// Whether Python's csv writer (RFC 4180 quoting, CRLF) writes back exactly these bytes.
    static func pythonRewritesTheSameBytes(_ bytes: [UInt8]) throws -> Bool {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rfc-\(UUID().uuidString).csv")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import csv, io, sys
            data = open(sys.argv[1], "rb").read()
            rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline=""), strict=True))
            out = io.StringIO(newline="")
            csv.writer(out, lineterminator="\\r\\n").writerows(rows)
            print("same" if out.getvalue().encode("utf-8") == data else "differs")
            """
        let r = try CLIRunner.run("/usr/bin/python3", ["-c", script, file.path])
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "same"
    }

    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    @Test func theGermanExcelFileHasAByteOrderMarkSemicolonsAndDecimalCommas() throws {
        let s = try scenario()
        let r = try s.download("/v1/export/days.csv?dialect=excel&lang=de")
        #expect(r.status == 200)
        #expect(Array(r.body.prefix(3)) == Self.bom)
        #expect(String(decoding: r.body.dropFirst(3), as: UTF8.self).hasPrefix("record_id;site;dm_date;dm_pod;weight_morning_kg;"))
        let (header, rows) = try Self.python(r.body, delimiter: ";")
        #expect(header.first == "record_id" && header.contains("rt_slowing_pct"))
        let day = try #require(rows.first)
        #expect(day["weight_morning_kg"] == "80,5" && day["urine_sg"] == "1,012", "\(day)")
        #expect(day["rt_slowing_pct"] == "-1,5", "a negative number is a number: no apostrophe")
        #expect(day["dm_date"] == Study.date(-2) && day["dm_pod"] == "10", "dates stay ISO")
        #expect(day["sym_m_time"] == "" && day["record_id"] == "XL-A")
    }

    @Test func theEnglishExcelFileKeepsTheDecimalPoint() throws {
        let s = try scenario()
        let r = try s.download("/v1/patients/XL-A/export.csv?dialect=excel")
        #expect(r.status == 200 && Array(r.body.prefix(3)) == Self.bom)
        let day = try #require(try Self.python(r.body, delimiter: ";").rows.first)
        #expect(day["weight_morning_kg"] == "80.5" && day["rt_slowing_pct"] == "-1.5" && day["urine_sg"] == "1.012", "\(day)")
        let explicit = try s.download("/v1/patients/XL-A/export.csv?dialect=excel&lang=en")
        #expect(explicit.body == r.body, "the API's language is en unless lang says otherwise")
    }

    @Test func aNoteOrNameStartingLikeAFormulaGetsAnApostropheInExcelAndStaysAsStoredByDefault() throws {
        let s = try scenario()
        let excel = try Self.python(try s.download("/v1/export/contacts.csv?dialect=excel&lang=de").body, delimiter: ";")
        let contact = try #require(excel.rows.first)
        #expect(contact["note"] == "'=1+2 said fine" && contact["staff"] == "'-ward", "\(contact)")
        #expect(contact["contact_id"] == "1" && contact["outcome"] == "reached")
        let plain = try RFC4180.table(try s.download("/v1/export/contacts.csv").body)
        let stored = try #require(plain.rows.first)
        #expect(stored["note"] == "=1+2 said fine" && stored["staff"] == "-ward", "RFC 4180: as stored")
    }

    @Test func theDefaultDialectIsRFC4180ByteForByteWhateverTheLanguage() throws {
        let s = try scenario()
        for path in ["/v1/export/days.csv", "/v1/export/contacts.csv", "/v1/export/alerts.csv"] {
            let plain = try s.download(path)
            #expect(plain.status == 200 && Array(plain.body.prefix(3)) != Self.bom)
            #expect(try s.download(path + "?dialect=rfc4180").body == plain.body)
            #expect(try s.download(path + "?lang=de").body == plain.body, "lang changes only the excel dialect")
            #expect(try Self.pythonRewritesTheSameBytes(plain.body), "\(path): RFC 4180 quoting, CRLF, nothing added")
        }
        let days = try RFC4180.table(try s.download("/v1/export/days.csv").body)
        #expect(days.rows.first?["weight_morning_kg"] == "80.5" && days.rows.first?["rt_slowing_pct"] == "-1.5")
    }

    @Test func anUnknownDialectOrLanguageIsRefusedNamingTheParameter() throws {
        let s = try scenario()
        for (query, field) in [("dialect=xlsx", "dialect"), ("dialect=Excel", "dialect"), ("dialect=excel&lang=fr", "lang"),
                               ("lang=", "lang")] {
            let r = try s.d.request(.get, "/v1/export/days.csv?\(query)", token: s.d.adminToken)
            #expect(r.status == 400 && r.errorCode == "invalid_value" && r.errorField == field, "\(query): \(r.status) \(r.text)")
        }
        let one = try s.d.request(.get, "/v1/patients/XL-A/export.csv?dialect=csv", token: s.d.adminToken)
        #expect(one.status == 400 && one.errorField == "dialect")
    }

    @Test func theConsoleOffersTheExcelVariantBesideEachDownloadInThePagesLanguage() throws {
        let s = try scenario()
        try ConsoleClient.setPassword(s.d, "-ward", "correct horse battery")
        let c = ConsoleClient(s.d)
        try c.signIn("-ward", "correct horse battery")
        let german = try c.get("/console/statistics", headers: [("Accept-Language", "de")])
        for kind in ["days", "alerts", "contacts"] {
            #expect(german.text.contains("<a href=\"/console/export/\(kind).csv?dialect=excel&amp;lang=de\" download class=\"excel\">für Excel</a>"),
                    "\(kind)")
        }
        let english = try c.get("/console/statistics")
        #expect(english.text.contains("/console/export/days.csv?dialect=excel&amp;lang=en\" download class=\"excel\">for Excel</a>"))
        // Without lang, the page's language decides.
        let file = try c.get("/console/export/days.csv?dialect=excel", headers: [("Accept-Language", "de")])
        #expect(file.status == 200 && file.headers["content-type"] == "text/csv; charset=utf-8; header=present")
        #expect(file.text.contains(";80,5;"), "\(file.text.prefix(300))")
        let english2 = try c.get("/console/export/days.csv?dialect=excel&lang=en", headers: [("Accept-Language", "de")])
        #expect(english2.text.contains(";80.5;"))
        let bad = try c.get("/console/export/days.csv?dialect=ods", headers: [("Accept-Language", "de")])
        #expect(bad.status == 400 && bad.text.contains("dialect"), "a page, not a file: \(bad.text.prefix(300))")
    }

    @Test func theOpenAPIDocumentListsDialectAndLangForEveryCSVRoute() throws {
        let s = try scenario()
        let spec = try s.d.request(.get, "/openapi.json")
        guard case .object(let paths)? = spec["paths"] else { throw TestFailure("no paths") }
        for path in ["/v1/patients/{studyId}/export.csv", "/v1/export/days.csv", "/v1/export/alerts.csv", "/v1/export/contacts.csv"] {
            guard case .object(let ops)? = paths[path], case .object(let get)? = ops["get"],
                  case .array(let params)? = get["parameters"] else { Issue.record("\(path): no parameters"); continue }
            let names = params.compactMap { p -> String? in
                guard case .object(let o) = p, o["in"] == "query", case .string(let n)? = o["name"] else { return nil }
                return n
            }
            #expect(names.contains("dialect") && names.contains("lang"), "\(path): \(names)")
            #expect(path.hasPrefix("/v1/patients/") || names.contains("studyId"), "\(path): \(names)")
        }
    }
}
