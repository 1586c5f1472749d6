import Foundation
import Testing
import HTJSON

/// The patient web check-in (`/app/`) over the real daemon and real HTTP (the browser itself:
/// scripts/browser-test).
@Suite struct PatientAppTests {
    static func enroll(_ d: TestDaemon, _ id: String, _ extra: [(String, JSONValue)] = []) throws -> String {
        let e = try d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile(id, extra))
        guard e.status == 201, case .string(let code)? = e["activationCode"] else { throw TestFailure("enroll: \(e.text)") }
        return code
    }

    /// Activates through the form (web-only unless `alsoApp`: the box "I also use the
    /// HyponaTrack app" ticked); returns the client holding `ht_patient`.
    static func activate(_ d: TestDaemon, _ id: String, code: String, alsoApp: Bool = false) throws -> (ConsoleClient, TestDaemon.Response) {
        let c = ConsoleClient(d)
        var fields = ["studyId": id, "code": code]
        if alsoApp { fields["alsoApp"] = "1" }
        let r = try c.postSignIn("/app/activate", fields)
        guard r.status == 303, let set = r.headers["set-cookie"], set.hasPrefix("ht_patient=") else {
            throw TestFailure("activation: \(r.status) \(r.text.prefix(300))")
        }
        c.cookie = String(set.split(separator: ";")[0])
        return (c, r)
    }

    static func morning(_ c: ConsoleClient, weight: String, nausea: String = "0", extra: [String: String] = [:],
                        headers: [(String, String)] = []) throws -> TestDaemon.Response {
        _ = try c.get("/app/morning", headers: headers)
        let fields = ["date": Study.date(0), "weightMorningKg": weight, "nausea": nausea, "headache": "0",
                      "fatigue": "1", "confusion": "0", "muscleCramps": "0", "vas": "8"]
        return try c.post("/app/morning", fields.merging(extra) { $1 }, headers: headers)
    }

    /// The message shown next to `field` (`<p class="error" id="FIELD-error">…</p>`), or nil.
    static func message(_ page: String, at field: String) -> String? {
        guard let start = page.range(of: "<p class=\"error\" id=\"\(field)-error\">"),
              let end = page.range(of: "</p>", range: start.upperBound..<page.endIndex) else { return nil }
        return String(page[start.upperBound..<end.lowerBound])
    }

    static func today(_ d: TestDaemon, _ id: String) throws -> JSONObject? {
        let p = try d.request(.get, "/v1/patients/\(id)", token: d.adminToken)
        guard case .array(let days)? = p["timeline"] else { return nil }
        for case .object(let day) in days where day["date"] == .string(Study.date(0)) {
            if case .object(let data)? = day["data"] { return data }
        }
        return nil
    }

    @Test func activatingSetsTheTokenCookieForTheAppOnlyUntilItExpires() throws {
        let d = try TestDaemon()
        let (c, r) = try Self.activate(d, "APP-1", code: try Self.enroll(d, "APP-1"))
        let cookie = r.headers["set-cookie"] ?? ""
        for flag in ["HttpOnly", "SameSite=Strict", "Path=/app/"] { #expect(cookie.contains(flag), "\(flag): \(cookie)") }
        let maxAge = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("Max-Age=") }
            .flatMap { Int($0.dropFirst(8)) } ?? 0
        #expect(maxAge > 30 * 86400 && maxAge < 90 * 86400, "kept until the token expires (window + 30 days): \(maxAge) s")
        #expect(r.headers["location"] == "/app/")
        let page = try c.get("/app/")
        #expect(page.status == 200 && page.text.contains("id=\"light\"") && page.text.contains("tel:112"))
        #expect((page.headers["content-security-policy"] ?? "").contains("default-src 'self'"))
        #expect(try d.request(.get, "/console/", contentType: nil, headers: [("Cookie", c.cookie!)]).status == 303,
                "a patient cookie opens no console page")
    }

    @Test func aWrongCodeIsShownAtTheFieldAndCountsTowardsTheLockout() throws {
        let d = try TestDaemon()
        _ = try Self.enroll(d, "APP-2")
        let c = ConsoleClient(d)
        for n in 1...4 {
            let r = try c.postSignIn("/app/activate", ["studyId": "APP-2", "code": "WRONG-\(n)XXXX"])
            #expect(r.status == 401 && r.text.contains("id=\"code-error\"") && r.headers["set-cookie"] == nil, "try \(n): \(r.status)")
        }
        _ = try c.postSignIn("/app/activate", ["studyId": "APP-2", "code": "WRONG-5XXXX"])   // the fifth locks
        let locked = try c.postSignIn("/app/activate", ["studyId": "APP-2", "code": "WRONG-6XXXX"])
        #expect(locked.status == 429 && locked.headers["retry-after"] != nil, "the API's lockout applies: \(locked.status)")
        let blank = try c.postSignIn("/app/activate", ["studyId": "", "code": ""])
        #expect(blank.status == 400 && blank.text.contains("id=\"studyId-error\"") && blank.text.contains("id=\"code-error\""))
    }

    @Test func aMorningCheckIsStoredOnceHoweverOftenTheFormIsSent() throws {
        let d = try TestDaemon()
        let (c, _) = try Self.activate(d, "APP-3", code: try Self.enroll(d, "APP-3"))
        let first = try Self.morning(c, weight: "80,4", nausea: "1")
        #expect(first.status == 303 && first.headers["location"] == "/app/?saved=morning")
        let again = try Self.morning(c, weight: "80.6", nausea: "1")
        #expect(again.status == 303)
        _ = try Self.morning(c, weight: "80.6", nausea: "1")            // a double tap
        let day = try Self.today(d, "APP-3")
        guard case .array(let symptoms)? = day?["symptoms"] else { throw TestFailure("no symptoms: \(String(describing: day))") }
        #expect(symptoms.count == 1, "one entry: \(symptoms)")
        #expect(day?["weightMorningKg"] == 80.6, "the resent form updated the same day")
        let page = try c.get("/app/?saved=morning")
        #expect(page.text.contains("role=\"status\"") && page.text.contains("data-level=\"green\""))
    }

    @Test func anInvalidValueIsShownAtItsFieldAndNothingIsStored() throws {
        let d = try TestDaemon()
        let (c, _) = try Self.activate(d, "APP-4", code: try Self.enroll(d, "APP-4"))
        for (weight, nausea, field) in [("500", "0", "weightMorningKg"), ("abc", "0", "weightMorningKg"), ("80", "7", "nausea")] {
            let r = try Self.morning(c, weight: weight, nausea: nausea)
            #expect(r.status == 400, "\(weight)/\(nausea): \(r.status)")
            #expect(r.text.contains("id=\"\(field)-error\"") && r.text.contains("aria-describedby=\"\(field)-error\""), "\(field)")
        }
        _ = try c.get("/app/morning")
        let missing = try c.post("/app/morning", ["date": Study.date(0), "weightMorningKg": "80"])
        #expect(missing.status == 400 && missing.text.contains("class=\"error\" id=\"nausea-error\""), "an unanswered item is named")
        #expect(try Self.today(d, "APP-4") == nil, "nothing stored")
    }

    @Test func theMorningCheckTakesTheFluidIntakeSoFarAndShowsABadOneAtItsField() throws {
        let d = try TestDaemon()
        let (c, _) = try Self.activate(d, "APP-8", code: try Self.enroll(d, "APP-8"))
        let form = try c.get("/app/morning")
        #expect(form.text.contains("<label for=\"fluidIntakeMl\">") && form.text.contains("name=\"fluidIntakeMl\""), "the optional field is on the form")
        for bad in ["a glass", "20000"] {
            let r = try Self.morning(c, weight: "80", extra: ["fluidIntakeMl": bad])
            #expect(r.status == 400, "\(bad): \(r.status)")
            #expect(r.text.contains("id=\"fluidIntakeMl-error\"") && r.text.contains("aria-describedby=\"fluidIntakeMl-error\""),
                    "the message sits at the field for \(bad)")
            #expect(r.text.contains("value=\"\(bad)\""), "the value as typed is shown again")
        }
        #expect(try Self.today(d, "APP-8") == nil, "nothing stored")
        let ok = try Self.morning(c, weight: "80", extra: ["fluidIntakeMl": "750"])
        #expect(ok.status == 303)
        #expect(try Self.today(d, "APP-8")?["fluidIntakeMl"] == 750)
        let blank = try Self.morning(c, weight: "80", extra: ["fluidIntakeMl": ""])
        #expect(blank.status == 303, "the field is optional")
    }

    @Test func aRefusedEmergencySignIsShownInTheEmergencyBoxAndNothingIsStored() throws {
        let d = try TestDaemon()
        let (c, _) = try Self.activate(d, "APP-9", code: try Self.enroll(d, "APP-9"))
        let r = try Self.morning(c, weight: "80", extra: ["emergencySymptoms": "bogus"])
        #expect(r.status == 400)
        guard let start = r.text.range(of: "<fieldset class=\"emergency\""),
              let end = r.text.range(of: "</fieldset>", range: start.upperBound..<r.text.endIndex) else {
            throw TestFailure("no emergency box: \(r.text.prefix(400))")
        }
        let box = r.text[start.lowerBound..<end.upperBound]
        #expect(box.contains("aria-invalid=\"true\" aria-describedby=\"emergencySymptoms-error\""), "\(box)")
        #expect(box.contains("id=\"emergencySymptoms-error\"") && box.contains("not on the list"), "the message sits in the box: \(box)")
        #expect(try Self.today(d, "APP-9") == nil, "nothing stored")
    }

    /// Every kind of refusal the check forms can meet — out of range, not a number, an item left
    /// out, an unknown emergency sign, a day outside the monitoring window — is explained next to
    /// its field in the page's language (Accept-Language, then the switch's ht_lang cookie),
    /// never in the API's English.
    @Test func aRefusedFieldIsExplainedInThePagesLanguage() throws {
        let d = try TestDaemon()
        let (c, _) = try Self.activate(d, "APP-10", code: try Self.enroll(d, "APP-10"))
        let cases: [(form: [String: String], field: String, en: String, de: String)] = [
            (["weightMorningKg": "500"], "weightMorningKg",
             "Please enter a value from 25 to 350.", "Bitte geben Sie einen Wert von 25 bis 350 ein."),
            (["weightMorningKg": "viel"], "weightMorningKg",
             "Please enter a number (digits, with a point or a comma for decimals).",
             "Bitte geben Sie eine Zahl ein (Ziffern, Nachkommastellen mit Komma oder Punkt)."),
            (["urineSG": "1,2"], "urineSG",
             "Please enter a value from 1.000 to 1.040.", "Bitte geben Sie einen Wert von 1,000 bis 1,040 ein."),
            (["nausea": ""], "nausea", "Please choose one answer.", "Bitte wählen Sie eine Antwort."),
            (["vas": "11"], "vas", "Please choose one of the answers 0 to 10.", "Bitte wählen Sie eine der Antworten 0 bis 10."),
            (["emergencySymptoms": "bogus"], "emergencySymptoms",
             "This sign is not on the list. Please tick only the signs shown here.",
             "Dieses Zeichen steht nicht in der Liste. Bitte kreuzen Sie nur die hier genannten Zeichen an."),
        ]
        for german in [false, true] {
            let headers = [("Accept-Language", german ? "de-DE,de;q=0.9" : "en-GB,en;q=0.9")]
            for (form, field, en, de) in cases {
                let r = try Self.morning(c, weight: "80", extra: form, headers: headers)
                #expect(r.status == 400 && r.text.contains("<html lang=\"\(german ? "de" : "en")\""), "\(form): \(r.status)")
                #expect(Self.message(r.text, at: field) == (german ? de : en), "\(form): \(Self.message(r.text, at: field) ?? r.text)")
            }
        }
        // The switch's cookie wins over the browser's language.
        let patient = c.cookie
        c.cookie = (patient ?? "") + "; ht_lang=de"
        let switched = try Self.morning(c, weight: "500", headers: [("Accept-Language", "en-GB")])
        #expect(Self.message(switched.text, at: "weightMorningKg") == "Bitte geben Sie einen Wert von 25 bis 350 ein.")
        c.cookie = patient
        #expect(try Self.today(d, "APP-10") == nil, "nothing stored")

        // The surgery day is before monitoring begins (POD 1): the day itself is refused, at the first field.
        let e = try d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("APP-11", surgeryDaysAgo: 0))
        guard case .string(let code)? = e["activationCode"] else { throw TestFailure("enroll: \(e.text)") }
        let (early, _) = try Self.activate(d, "APP-11", code: code)
        let first = Study.date(1).split(separator: "-")
        for german in [false, true] {
            let r = try Self.morning(early, weight: "80", headers: [("Accept-Language", german ? "de" : "en")])
            let shown = Self.message(r.text, at: "weightMorningKg") ?? r.text
            #expect(r.status == 400, "\(r.status)")
            #expect(german ? shown.hasPrefix("Checks können nur in Ihrem Beobachtungszeitraum gespeichert werden, \(first[2]).\(first[1]).\(first[0]) bis ")
                           : shown.hasPrefix("Checks can be saved only in your monitoring period, \(Study.date(1)) to "), "\(shown)")
        }
    }

    @Test func aFormWithoutItsTokenIsRefused() throws {
        let d = try TestDaemon()
        let (c, _) = try Self.activate(d, "APP-5", code: try Self.enroll(d, "APP-5"))
        let r = try c.post("/app/morning", ["weightMorningKg": "80", "nausea": "0", "headache": "0", "fatigue": "0", "confusion": "0",
                                            "muscleCramps": "0", "vas": "9"], csrf: false)
        #expect(r.status == 403)
        #expect(try Self.today(d, "APP-5") == nil)
        let signedOut = try d.request(.post, "/app/morning", raw: Array("weightMorningKg=80".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(signedOut.status == 403, "no cookie, no check")
    }

    @Test func activatingOnTheWebWithoutTheAppBoxHidesReactionAndTappingButKeepsDesmopressinAndIsAudited() throws {
        let d = try TestDaemon()
        let (c, _) = try Self.activate(d, "APP-6", code: try Self.enroll(d, "APP-6", [("desmopressinPrescribed", true)]))
        let page = try c.get("/app/")
        for task in ["reaction_test", "tapping_test"] { #expect(!page.text.contains("data-task=\"\(task)\""), "\(task) hidden") }
        #expect(page.text.contains("data-task=\"desmopressin\""), "desmopressin stays for a patient it is prescribed to")
        #expect(page.text.contains("data-task=\"weight_morning\""))
        let patient = try d.request(.get, "/v1/patients/APP-6", token: d.adminToken)
        #expect(patient.text.contains("\"webOnly\":true"))
        let trail = try d.request(.get, "/v1/audit?subject=APP-6", token: d.adminToken).text
        #expect(trail.contains("patient.update") && trail.contains("webOnly"))
        let enrolled = try CLIRunner.run(["enroll", "--study-id", "APP-7", "--surgery-date", Study.date(-3), "--age", "50", "--sex", "male",
                                          "--bmi", "25", "--baseline-weight", "80", "--web-only", "--json"],
                                         server: d.baseURL, token: d.adminToken)
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(try d.request(.get, "/v1/patients/APP-7", token: d.adminToken).text.contains("\"webOnly\":true"))
    }

    /// Past `tokens.patientDaysAfterMonitoring` the right code gets no cookie, and the page says
    /// why next to the code, in its language (the API answers 410 `expired` the same way).
    @Test func activatingAfterTheAccessEndedIsRefusedAtTheCodeFieldInThePagesLanguage() throws {
        let config = try ConfigDirectory(server: #"{"tokens": {"patientDaysAfterMonitoring": 20}}"#)
        let d = try TestDaemon(configFile: config.serverFile)
        let e = try d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("APP-12", surgeryDaysAgo: 40))
        guard e.status == 201, case .string(let code)? = e["activationCode"] else { Issue.record("enrol: \(e.text)"); return }
        let lastDay = Study.date(-6).split(separator: "-")
        let r = try ConsoleClient(d).postSignIn("/app/activate", ["studyId": "APP-12", "code": code],
                                                headers: [("Accept-Language", "de-DE,de;q=0.9")])
        #expect(r.status == 410 && r.headers["set-cookie"] == nil, "\(r.status)")
        #expect(Self.message(r.text, at: "code") == "Ihr Beobachtungszeitraum in der Studie ist vorbei, die App kann daher nicht "
                + "mehr aktiviert werden (Zugang endete am \(lastDay[2]).\(lastDay[1]).\(lastDay[0])).", "\(r.text.prefix(2000))")
    }

    @Test func germanPagesAndTheManifest() throws {
        let d = try TestDaemon()
        let page = try d.request(.get, "/app/activate", contentType: nil, headers: [("Accept-Language", "de-DE,de;q=0.9")])
        #expect(page.text.contains("<html lang=\"de\"") && page.text.contains("Studien-ID"))
        let manifest = try d.request(.get, "/app/manifest.webmanifest", contentType: nil)
        #expect(manifest.status == 200 && manifest["start_url"] == "/app/" && manifest["display"] == "standalone")
        #expect(page.text.contains("rel=\"manifest\""))
    }
}
