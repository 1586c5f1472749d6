import Foundation
import Testing
import HTJSON

/// The complete web check-in and the activation link (docs/product.md, W), over the real daemon
/// and real HTTP: vomiting and every other input the rules read, every problem at once, plain
/// words, the contacts a yellow or red light carries, web-only by default, `activationURL`, a
/// link preview that never uses the code, an access log without the code, `reissue --add-device`.
@Suite struct WebCheckInTests {
    typealias App = PatientAppTests

    /// The patient token the `ht_patient` cookie carries (the API accepts it as a bearer token).
    static func token(_ c: ConsoleClient) -> String { String((c.cookie ?? "").dropFirst("ht_patient=".count)) }

    @Test func twoVomitingEpisodesReportedOnTheWebMakeARed() throws {
        let d = try TestDaemon()
        let (c, _) = try App.activate(d, "WEB-1", code: try App.enroll(d, "WEB-1"))
        let form = try c.get("/app/evening")
        #expect(form.text.contains("<label for=\"vomitingEpisodes\">") && form.text.contains("name=\"vomitingEpisodes\""))
        _ = try c.get("/app/morning")
        let r = try c.post("/app/morning", ["date": Study.date(0), "weightMorningKg": "80", "nausea": "0", "headache": "0",
                                            "fatigue": "0", "confusion": "0", "muscleCramps": "0", "vas": "9", "vomitingEpisodes": "2"])
        #expect(r.status == 303, "\(r.status) \(r.text.prefix(300))")
        #expect(try App.today(d, "WEB-1")?["vomitingEpisodes"] == 2)
        let page = try c.get("/app/")
        #expect(page.text.contains("data-level=\"red\""), "two episodes are a red trigger")
        #expect(try d.request(.get, "/v1/me/today", token: Self.token(c))["level"] == "red")
    }

    /// Task → state in a `/v1/me/today` answer.
    static func taskStates(_ today: TestDaemon.Response) -> [String: String] {
        guard case .array(let tasks)? = today["tasks"] else { return [:] }
        var out: [String: String] = [:]
        for case .object(let t) in tasks { if case .string(let n)? = t["task"], case .string(let s)? = t["state"] { out[n] = s } }
        return out
    }

    @Test func aFormWithSixProblemsShowsSixMessagesAtTheirFieldsAndStoresNothing() throws {
        let d = try TestDaemon()
        let (c, _) = try App.activate(d, "WEB-2", code: try App.enroll(d, "WEB-2", [("desmopressinPrescribed", true)]))
        for german in [false, true] {
            let headers = [("Accept-Language", german ? "de-DE,de;q=0.9" : "en-GB,en;q=0.9")]
            _ = try c.get("/app/morning", headers: headers)
            let r = try c.post("/app/morning", ["date": Study.date(0), "weightMorningKg": "500", "urineSG": "2", "fluidIntakeMl": "viel",
                                                "vomitingEpisodes": "99", "nausea": "0", "headache": "7", "fatigue": "0",
                                                "confusion": "0", "muscleCramps": "0", "doseMcg": "5000"], headers: headers)
            #expect(r.status == 400)
            let fields = ["weightMorningKg", "urineSG", "fluidIntakeMl", "vomitingEpisodes", "headache", "vas", "doseMcg"]
            for field in fields {
                #expect(App.message(r.text, at: field) != nil, "\(field) has its message (\(german ? "de" : "en"))")
                #expect(r.text.contains("aria-describedby=\"\(field)-error\""), "\(field) is tied to its message")
            }
            #expect(r.text.components(separatedBy: "<p class=\"error\" id=\"").count - 1 == fields.count, "one message per problem")
            #expect(r.text.contains(german ? "7 Angaben müssen geprüft werden" : "7 answers need checking"))
            #expect(App.message(r.text, at: "vas") == (german ? "Bitte wählen Sie eine Antwort." : "Please choose one answer."))
            #expect(r.text.contains("value=\"viel\"") && r.text.contains("value=\"99\""), "the values as typed are shown again")
        }
        #expect(try App.today(d, "WEB-2") == nil, "nothing stored")
        // The dose field is asked only of patients desmopressin is prescribed to.
        let (other, _) = try App.activate(d, "WEB-2B", code: try App.enroll(d, "WEB-2B"))
        #expect(!(try other.get("/app/morning")).text.contains("name=\"doseMcg\""))
    }

    @Test func pagesSayTheDayAfterTheOperationInWordsAndWriteDatesAsTheLanguageDoes() throws {
        let d = try TestDaemon()
        let (c, _) = try App.activate(d, "WEB-3", code: try App.enroll(d, "WEB-3"))
        let de = [("Accept-Language", "de-DE,de;q=0.9")]
        let parts = Study.date(0).split(separator: "-").map { Int($0)! }
        let german = "\(parts[2]).\(parts[1]).\(parts[0])"
        let page = try c.get("/app/", headers: de)
        #expect(page.text.contains("Tag 6 nach Ihrer Operation") && page.text.contains(german), "\(page.text)")
        #expect(!page.text.contains("· POD 6"), "no abbreviation as the text")
        #expect(try c.get("/app/morning", headers: de).text.contains("<p class=\"muted\">\(german)</p>"))
        let english = try c.get("/app/", headers: [("Accept-Language", "en-GB")])
        #expect(english.text.contains("Day 6 after your operation"))
        // English writes the month's name: no ISO digits, no day/month order to guess.
        let month = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                     "November", "December"][parts[1] - 1]
        #expect(english.text.contains(" · <span class=\"date\">\(parts[2]) \(month) \(parts[0])</span></p>")
                && !english.text.contains("\(Study.date(0))</span>"),
                "\(english.text)")
        #expect(try c.get("/app/morning", headers: [("Accept-Language", "en-GB")]).text
            .contains("<p class=\"muted\">\(parts[2]) \(month) \(parts[0])</p>"))
        // The fluid limit is shown beside the fluid field.
        let evening = try c.get("/app/evening", headers: de)
        #expect(evening.text.contains("id=\"fluidIntakeMl-hint\">Ihre Grenze: 1500 ml am Tag"), "\(evening.text)")
    }

    @Test func yellowAndRedInstructionsCarryTheStudyIdTheClinicPhoneAndTheEmergencyNumber() throws {
        let config = try ConfigDirectory(server: #"{"app": {"clinicPhone": "+49 30 1234 567", "emergencyNumber": "999"}}"#)
        let d = try TestDaemon(configFile: config.serverFile)
        let (yellow, _) = try App.activate(d, "WEB-Y", code: try App.enroll(d, "WEB-Y"))
        let answer = try d.request(.put, "/v1/me/days/\(Study.date(0))", token: Self.token(yellow), body: ["weightMorningKg": 82.0])
        #expect(answer.status == 200 && answer["level"] == "yellow")
        // The app is told the same as the web page: no yellow tier, so the patient calls.
        guard case .object(let told)? = answer["instructions"], case .string(let text)? = told["text"] else { throw TestFailure(answer.text) }
        #expect(text.contains("Please call the clinic today.") && !text.contains("will call you"), "\(text)")
        let (red, _) = try App.activate(d, "WEB-R", code: try App.enroll(d, "WEB-R"))
        #expect(try d.request(.put, "/v1/me/days/\(Study.date(0))", token: Self.token(red), body: ["vomitingEpisodes": 3]).status == 200)
        for (c, id, level) in [(yellow, "WEB-Y", "yellow"), (red, "WEB-R", "red")] {
            for lang in ["de-DE", "en-GB"] {
                let page = try c.get("/app/", headers: [("Accept-Language", lang)])
                guard let start = page.text.range(of: "id=\"light\""), let end = page.text.range(of: "</section>", range: start.upperBound..<page.text.endIndex) else {
                    Issue.record("no light: \(page.text.prefix(500))"); continue
                }
                let light = page.text[start.lowerBound..<end.lowerBound]
                #expect(light.contains("data-level=\"\(level)\""))
                #expect(light.contains("<strong>\(id)</strong>"), "the study ID to show: \(light)")
                #expect(light.contains("href=\"tel:+49301234567\">+49 30 1234 567</a>"), "the clinic's number")
                #expect(light.contains("href=\"tel:999\">999</a>"), "the emergency number")
            }
        }
        // No yellow escalation tier is configured: nobody would call, so the patient is asked to.
        let page = try yellow.get("/app/", headers: [("Accept-Language", "de-DE")])
        #expect(page.text.contains("Bitte rufen Sie heute die Klinik an."))
        #expect(!page.text.contains("Die Klinik ruft Sie"))
    }

    @Test func aWebActivationIsWebOnlyAndNeverRemindsOfReactionOrTappingUnlessTheAppBoxIsTicked() throws {
        let d = try TestDaemon()
        let form = try d.request(.get, "/app/activate", contentType: nil)
        #expect(form.text.contains("I also use the HyponaTrack app") && !form.text.contains("name=\"webOnly\""))
        let (web, _) = try App.activate(d, "WEB-4", code: try App.enroll(d, "WEB-4", [("desmopressinPrescribed", true)]))
        let today = try d.request(.get, "/v1/me/today", token: Self.token(web))
        guard case .object(let reminders)? = today["reminders"], case .array(let plan)? = reminders["plan"] else {
            throw TestFailure("today: \(today.text)")
        }
        let states = Self.taskStates(today)
        #expect(states["reaction_test"] == "hidden" && states["tapping_test"] == "hidden", "\(states)")
        #expect(states["desmopressin"] == "open", "desmopressin stays: \(states)")
        let page = try web.get("/app/")
        #expect(!page.text.contains("data-task=\"reaction_test\"") && !page.text.contains("data-task=\"tapping_test\""))
        let reminded = plan.flatMap { r -> [JSONValue] in if case .object(let o) = r, case .array(let t)? = o["tasks"] { t } else { [] } }
        #expect(!reminded.contains("reaction_test") && !reminded.contains("tapping_test"), "never reminded: \(plan)")
        #expect(try d.request(.get, "/v1/patients/WEB-4", token: d.adminToken).text.contains("\"webOnly\":true"))
        // The last activation decides: a second device activated with the box ticked.
        let reissued = try d.request(.post, "/v1/patients/WEB-4/activation", token: d.adminToken, body: ["addDevice": true])
        guard case .string(let code)? = reissued["activationCode"] else { throw TestFailure("\(reissued.text)") }
        let (both, _) = try App.activate(d, "WEB-4", code: code, alsoApp: true)
        let after = Self.taskStates(try d.request(.get, "/v1/me/today", token: Self.token(both)))
        #expect(after["reaction_test"] == "open" && after["tapping_test"] == "open", "\(after)")
        #expect(try d.request(.get, "/v1/patients/WEB-4", token: d.adminToken).text.contains("\"webOnly\":false"))
        #expect(try d.request(.get, "/v1/me/today", token: Self.token(web)).status == 200, "the first browser keeps working")
    }
}
