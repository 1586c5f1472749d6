import Foundation
import Testing
import HTJSON

/// Bad input gets a clear 4xx naming the field and changes nothing (docs/product.md, "Errors").
@Suite(.serialized) struct BadRequestTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let method: String
        let path: String
        let who: String          // "patient", "admin", "viewer", "none", "garbage"
        let body: String?
        let contentType: String?
        let status: Int
        let code: String
        let field: String?
        var testDescription: String { name }
    }

    static let day = Study.date(-1)
    static let item = #"{"id":"s1","time":"\#(Study.time(day))","slot":"morning","nausea":0,"headache":0,"fatigue":0,"confusion":0,"muscleCramps":0,"vas":8}"#

    static let cases: [Case] = {
        let put = "/v1/me/days/\(day)"
        func p(_ name: String, _ body: String, _ code: String = "invalid_value", _ field: String?, status: Int = 400) -> Case {
            Case(name: name, method: "PUT", path: put, who: "patient", body: body, contentType: "application/json",
                 status: status, code: code, field: field)
        }
        func symptom(_ key: String, _ value: String) -> String {
            item.replacingOccurrences(of: "\"\(key)\":\(key == "slot" ? "\"morning\"" : key == "vas" ? "8" : "0")", with: "\"\(key)\":\(value)")
        }
        return [
            p("weight as a string", #"{"weightMorningKg":"80"}"#, "invalid_value", "weightMorningKg"),
            p("negative weight", #"{"weightMorningKg":-80}"#, "invalid_value", "weightMorningKg"),
            p("absurd weight", #"{"weightMorningKg":900}"#, "invalid_value", "weightMorningKg"),
            p("fluid over 10 L", #"{"fluidIntakeMl":10001}"#, "invalid_value", "fluidIntakeMl"),
            p("urine SG too low", #"{"urineSG":0.99}"#, "invalid_value", "urineSG"),
            p("urine SG too high", #"{"urineSG":1.05}"#, "invalid_value", "urineSG"),
            p("fractional vomiting episodes", #"{"vomitingEpisodes":1.5}"#, "invalid_value", "vomitingEpisodes"),
            p("unknown emergency symptom", #"{"emergencySymptoms":["fever"]}"#, "invalid_value", "emergencySymptoms[0]"),
            p("symptom item of 4", "{\"symptoms\":[\(symptom("nausea", "4"))]}", "invalid_value", "symptoms[0].nausea"),
            p("VAS of 11", "{\"symptoms\":[\(symptom("vas", "11"))]}", "invalid_value", "symptoms[0].vas"),
            p("unknown slot", "{\"symptoms\":[\(symptom("slot", "\"noon\""))]}", "invalid_value", "symptoms[0].slot"),
            p("symptom without an id", "{\"symptoms\":[\(item.replacingOccurrences(of: "\"id\":\"s1\",", with: ""))]}",
              "invalid_value", "symptoms[0].id"),
            p("item id too long", "{\"symptoms\":[\(item.replacingOccurrences(of: "\"s1\"", with: "\"\(String(repeating: "x", count: 65))\""))]}",
              "invalid_value", "symptoms[0].id"),
            p("time without offset", "{\"symptoms\":[\(item.replacingOccurrences(of: Study.time(day), with: "\(day)T08:00:00"))]}",
              "invalid_value", "symptoms[0].time"),
            p("reaction median under 100 ms", #"{"reactionTests":[{"id":"r","time":"\#(Study.time(day))","medianMs":50,"meanMs":300,"errors":0}]}"#,
              "invalid_value", "reactionTests[0].medianMs"),
            p("tapping duration 0 s", #"{"tappingTests":[{"id":"t","time":"\#(Study.time(day))","taps":30,"durationSeconds":0}]}"#,
              "invalid_value", "tappingTests[0].durationSeconds"),
            p("unknown field", #"{"weightMorning":80}"#, "unknown_field", "weightMorning"),
            p("unknown nested field", "{\"symptoms\":[\(item.replacingOccurrences(of: "\"vas\":8", with: "\"vas\":8,\"mood\":2"))]}",
              "unknown_field", "symptoms[0].mood"),
            p("lab sodium from the patient", #"{"labSodium":[]}"#, "not_allowed", "labSodium"),
            p("date in the body", #"{"date":"\#(day)"}"#, "not_allowed", "date"),
            p("derived value", #"{"morningCheckComplete":true}"#, "not_allowed", "morningCheckComplete"),
            p("malformed JSON", #"{"weightMorningKg": }"#, "invalid_json", nil),
            p("a JSON array body", "[]", "invalid_value", nil),
            p("steps over 100000", #"{"steps":100001}"#, "invalid_value", "steps"),
            p("fluid intake that would read as 0", #"{"fluidIntakeMl":1e-400}"#, "invalid_value", "fluidIntakeMl"),
            p("VAS that would read as 0", "{\"symptoms\":[\(symptom("vas", "-2.5e-330"))]}", "invalid_value", "symptoms[0].vas"),
            p("steps too large for a number", #"{"steps":1e400}"#, "invalid_value", "steps"),
            p("resting heart rate 19", #"{"restingHeartRate":19}"#, "invalid_value", "restingHeartRate"),
            Case(name: "date in the future", method: "PUT", path: "/v1/me/days/\(Study.date(1))", who: "patient",
                 body: "{}", contentType: "application/json", status: 400, code: "invalid_value", field: "date"),
            Case(name: "date before monitoring", method: "PUT", path: "/v1/me/days/\(Study.date(-6))", who: "patient",
                 body: "{}", contentType: "application/json", status: 400, code: "invalid_value", field: "date"),
            Case(name: "malformed date in the path", method: "PUT", path: "/v1/me/days/2026-13-45", who: "patient",
                 body: "{}", contentType: "application/json", status: 400, code: "invalid_value", field: "date"),
            Case(name: "wrong content type", method: "PUT", path: put, who: "patient", body: "weight=80",
                 contentType: "application/x-www-form-urlencoded", status: 415, code: "unsupported_media_type", field: nil),
            Case(name: "oversize body", method: "PUT", path: put, who: "patient",
                 body: "{\"x\":\"\(String(repeating: "a", count: 70_000))\"}", contentType: "application/json",
                 status: 413, code: "too_large", field: nil),
            Case(name: "no token", method: "PUT", path: put, who: "none", body: "{}", contentType: "application/json",
                 status: 401, code: "unauthenticated", field: nil),
            Case(name: "garbage token", method: "GET", path: "/v1/me/today", who: "garbage", body: nil, contentType: nil,
                 status: 401, code: "unauthenticated", field: nil),
            Case(name: "staff token on a patient route", method: "GET", path: "/v1/me/today", who: "admin", body: nil,
                 contentType: nil, status: 403, code: "forbidden", field: nil),
            Case(name: "patient token on a staff route", method: "GET", path: "/v1/patients", who: "patient", body: nil,
                 contentType: nil, status: 403, code: "forbidden", field: nil),
            Case(name: "viewer cannot enroll", method: "POST", path: "/v1/patients", who: "viewer", body: "{}",
                 contentType: "application/json", status: 403, code: "forbidden", field: nil),
            Case(name: "unknown route", method: "GET", path: "/v1/nothing", who: "admin", body: nil, contentType: nil,
                 status: 404, code: "not_found", field: nil),
            Case(name: "unknown patient", method: "GET", path: "/v1/patients/NOPE", who: "admin", body: nil, contentType: nil,
                 status: 404, code: "not_found", field: nil),
            Case(name: "enroll: age 17", method: "POST", path: "/v1/patients", who: "admin",
                 body: JSONSerializer.string(Study.profile("BAD-1", [("age", 17)])), contentType: "application/json",
                 status: 400, code: "invalid_value", field: "age"),
            Case(name: "enroll: unknown histology", method: "POST", path: "/v1/patients", who: "admin",
                 body: JSONSerializer.string(Study.profile("BAD-2", [("histology", "glioma")])), contentType: "application/json",
                 status: 400, code: "invalid_value", field: "histology"),
            Case(name: "enroll: surgery in the future", method: "POST", path: "/v1/patients", who: "admin",
                 body: JSONSerializer.string(Study.profile("BAD-3", surgeryDaysAgo: -1)), contentType: "application/json",
                 status: 400, code: "invalid_value", field: "surgeryDate"),
            Case(name: "enroll: surgery 61 days ago", method: "POST", path: "/v1/patients", who: "admin",
                 body: JSONSerializer.string(Study.profile("BAD-4", surgeryDaysAgo: 61)), contentType: "application/json",
                 status: 400, code: "invalid_value", field: "surgeryDate"),
            Case(name: "enroll: study ID with a space", method: "POST", path: "/v1/patients", who: "admin",
                 body: JSONSerializer.string(Study.profile("BAD 5")), contentType: "application/json",
                 status: 400, code: "invalid_value", field: "studyId"),
            Case(name: "enroll: duplicate study ID in other case", method: "POST", path: "/v1/patients", who: "admin",
                 body: JSONSerializer.string(Study.profile("bad-patient")), contentType: "application/json",
                 status: 409, code: "conflict", field: "studyId"),
            Case(name: "enroll: unknown time zone", method: "POST", path: "/v1/patients", who: "admin",
                 body: JSONSerializer.string(Study.profile("BAD-6", [("timeZone", "Mars/Olympus")])), contentType: "application/json",
                 status: 400, code: "invalid_value", field: "timeZone"),
            Case(name: "update: study ID cannot change", method: "PATCH", path: "/v1/patients/BAD-PATIENT", who: "admin",
                 body: #"{"studyId":"OTHER"}"#, contentType: "application/json", status: 400, code: "not_allowed", field: "studyId"),
            Case(name: "update: nested unknown field", method: "PATCH", path: "/v1/patients/BAD-PATIENT", who: "admin",
                 body: #"{"katB":{"podNa":130}}"#, contentType: "application/json", status: 400, code: "unknown_field", field: "katB.podNa"),
            Case(name: "update: surgery date once data exists", method: "PATCH", path: "/v1/patients/BAD-PATIENT", who: "admin",
                 body: "{\"surgeryDate\":\"\(Study.date(-7))\"}", contentType: "application/json", status: 409, code: "conflict",
                 field: "surgeryDate"),
            Case(name: "lab: sodium 99", method: "POST", path: "/v1/patients/BAD-PATIENT/labs", who: "admin",
                 body: #"{"sodium":99}"#, contentType: "application/json", status: 400, code: "invalid_value", field: "sodium"),
            Case(name: "lab delete without reason", method: "POST", path: "/v1/patients/BAD-PATIENT/labs/1/deletion", who: "admin",
                 body: "{}", contentType: "application/json", status: 400, code: "invalid_value", field: "reason"),
            Case(name: "lab delete: bad id", method: "POST", path: "/v1/patients/BAD-PATIENT/labs/abc/deletion", who: "admin",
                 body: #"{"reason":"x"}"#, contentType: "application/json", status: 400, code: "invalid_value", field: "labId"),
            Case(name: "activate: missing code", method: "POST", path: "/v1/activate", who: "none",
                 body: #"{"studyId":"BAD-PATIENT"}"#, contentType: "application/json", status: 400, code: "invalid_value", field: "code"),
            Case(name: "days: bad from", method: "GET", path: "/v1/me/days?from=yesterday", who: "patient", body: nil,
                 contentType: nil, status: 400, code: "invalid_value", field: "from"),
            Case(name: "audit: limit 0", method: "GET", path: "/v1/audit?limit=0", who: "admin", body: nil, contentType: nil,
                 status: 400, code: "invalid_value", field: "limit"),
            Case(name: "staff: bad role", method: "POST", path: "/v1/staff", who: "admin", body: #"{"name":"x","role":"root"}"#,
                 contentType: "application/json", status: 400, code: "invalid_value", field: "role"),
        ]
    }()

    /// One daemon for the whole table, with one patient who already sent a day.
    final class Fixture: Sendable {
        let daemon: TestDaemon
        let patient: String
        let viewer: String
        init() throws {
            daemon = try TestDaemon()
            patient = try Study.enrollAndActivate(daemon, "BAD-PATIENT")
            viewer = try Study.staff(daemon, "viewer.v", role: "viewer")
            try daemon.request(.put, "/v1/me/days/\(BadRequestTests.day)", token: patient, body: ["weightMorningKg": 80])
        }
    }
    static let fixture = Result { try Fixture() }

    @Test func theTableHasAtLeastThirtyCases() { #expect(Self.cases.count >= 30) }

    @Test(arguments: cases)
    func badRequestIsRefusedNamingTheField(_ c: Case) throws {
        let f = try Self.fixture.get()
        let d = f.daemon
        let token: String? = switch c.who {
        case "patient": f.patient
        case "admin": d.adminToken
        case "viewer": f.viewer
        case "garbage": "htp_not-a-real-token"
        default: nil
        }
        let auditBefore = try d.request(.get, "/v1/audit/verify", token: d.adminToken)["rowsChecked"]
        let r = try d.request(.init(rawValue: c.method)!, c.path, token: token, raw: c.body.map { Array($0.utf8) },
                              contentType: c.contentType)
        #expect(r.status == c.status, "\(c.name): \(r.text)")
        #expect(r.errorCode == c.code, "\(c.name): \(r.text)")
        #expect(r.errorField == c.field, "\(c.name): \(r.text)")
        if c.status != 401 && c.code != "too_large" {
            // Nothing written: the audit trail (which records every write) did not grow.
            let auditAfter = try d.request(.get, "/v1/audit/verify", token: d.adminToken)["rowsChecked"]
            #expect(auditAfter == auditBefore, "\(c.name) wrote something")
        }
    }
}
