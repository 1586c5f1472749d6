import Foundation
import Testing
import HTJSON

/// The number a patient is told to call is the site's `app.emergencyNumber` wherever the
/// instructions reach them — the day's answer, today's view and the web check-in, in both
/// languages — never the 112 of the shipped default.
@Suite struct EmergencyNumberTests {
    static let number = "999"

    static func daemon() throws -> TestDaemon {
        let config = try ConfigDirectory(server: #"{"app": {"emergencyNumber": "\#(number)"}}"#)
        return try TestDaemon(configFile: config.serverFile)
    }

    static func instructions(_ r: TestDaemon.Response) -> String {
        guard case .object(let o)? = r["instructions"], case .string(let text)? = o["text"] else { return "" }
        return text
    }

    /// The page's text from `from` up to the first `to` after it.
    static func element(_ page: String, from: String, to: String) throws -> Substring {
        guard let start = page.range(of: from), let end = page.range(of: to, range: start.upperBound..<page.endIndex) else {
            throw TestFailure("no \(from) on the page: \(page.prefix(600))")
        }
        return page[start.upperBound..<end.lowerBound]
    }

    @Test func aPatientReportingASeizureIsToldToCallTheConfiguredNumberInBothLanguages() throws {
        let d = try Self.daemon()
        let token = try Study.enrollAndActivate(d, "EMG-1")
        for (header, words) in [("en-GB,en;q=0.9", "Call emergency services"), ("de-DE,de;q=0.9", "Notruf")] {
            let day = try d.request(.put, "/v1/me/days/\(Study.date(0))", token: token, body: ["emergencySymptoms": ["seizure"]],
                                    headers: [("Accept-Language", header)])
            #expect(day.status == 200 && day["level"] == "red", "\(day.text)")
            let answer = Self.instructions(day)
            #expect(answer.contains(words) && answer.contains("(\(Self.number))"), "\(header): \(answer)")
            let today = try d.request(.get, "/v1/me/today", token: token, headers: [("Accept-Language", header)])
            let shown = Self.instructions(today)
            #expect(today["level"] == "red" && shown == answer, "\(header): \(today.text)")
            #expect(!answer.contains("112") && !answer.contains("{emergencyNumber}"), "\(header): \(answer)")
        }
    }

    @Test func theDaysAnswerAndTodayNameThePatientsSitesEmergencyNumber() throws {
        let d = try Self.daemon()
        #expect(try d.request(.post, "/v1/sites", token: d.adminToken, body: ["code": "zrh", "name": "Zürich", "emergencyNumber": "144"]).status == 201)
        let atZurich = try Study.enrollAndActivate(d, "EMG-Z", [("site", "zrh")])
        let atMain = try Study.enrollAndActivate(d, "EMG-M", [("site", "main")])
        for (token, number, other) in [(atZurich, "144", Self.number), (atMain, Self.number, "144")] {
            let day = try d.request(.put, "/v1/me/days/\(Study.date(0))", token: token, body: ["emergencySymptoms": ["seizure"]])
            let answer = Self.instructions(day)
            #expect(answer.contains("(\(number))") && !answer.contains("(\(other))"), "\(answer)")
            let today = Self.instructions(try d.request(.get, "/v1/me/today", token: token))
            #expect(today == answer, "\(today)")
        }
        // Staff see which site a patient belongs to.
        let shown = try d.request(.get, "/v1/patients/EMG-Z", token: d.adminToken)
        #expect(shown["site"] == "zrh", "\(shown.text.prefix(300))")
        let listed = try d.request(.get, "/v1/patients", token: d.adminToken)
        #expect(listed.text.contains("\"site\":\"main\""), "\(listed.text.prefix(300))")
    }

    @Test func theWebCheckInNamesTheConfiguredNumberInTheRedInstructionAndTheEmergencyBox() throws {
        let d = try Self.daemon()
        let code = try PatientAppTests.enroll(d, "EMG-2")
        let (c, _) = try PatientAppTests.activate(d, "EMG-2", code: code)
        let saved = try PatientAppTests.morning(c, weight: "80", extra: ["emergencySymptoms": "seizure"])
        #expect(saved.status == 303)
        for (header, words) in [("en-GB", "Call emergency services"), ("de-DE", "Notruf")] {
            let page = try c.get("/app/", headers: [("Accept-Language", header)])
            #expect(page.text.contains("data-level=\"red\""), "\(page.text.prefix(600))")
            let instruction = try Self.element(page.text, from: "<p id=\"instructions\">", to: "</p>")
            #expect(instruction.contains(words) && instruction.contains("(\(Self.number))"), "\(header): \(instruction)")
            let box = try Self.element(page.text, from: "<section class=\"emergency\"", to: "</section>")
            #expect(box.contains("href=\"tel:\(Self.number)\""), "\(box)")
            // Tokens and hashed file names elsewhere on the page may hold any digits; the texts may not.
            for text in [instruction, box] { #expect(!text.contains("112") && !text.contains("{emergencyNumber}"), "\(header): \(text)") }
            let form = try c.get("/app/evening", headers: [("Accept-Language", header)])
            let formBox = try Self.element(form.text, from: "<fieldset class=\"emergency\"", to: "</fieldset>")
            #expect(formBox.contains("tel:\(Self.number)") && !formBox.contains("112"), "\(header): \(formBox)")
        }
    }
}
