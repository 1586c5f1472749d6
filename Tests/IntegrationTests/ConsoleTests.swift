import Foundation
import Synchronization
import Testing
import HTJSON

/// The browser console over the real daemon and real HTTP (the browser itself: scripts/console-browser-test).
@Suite struct ConsoleTests {
    static let password = "correct horse battery"

    /// The export scenario (EXP-B red, EXP-A yellow, EXP-C withdrawn) plus a green patient, and a
    /// nurse `-ward` and viewer `reader` with console passwords.
    static func scenario() throws -> ExportScenario {
        let s = try ExportScenario()
        let green = try Study.enrollAndActivate(s.d, "EXP-G", surgeryDaysAgo: ExportScenario.surgeryDaysAgo)
        let day = Study.date(-1)
        try ExportScenario.expect(s.d.request(.put, "/v1/me/days/\(day)", token: green,
                                              body: ["weightMorningKg": 80.0, "symptoms": [Study.symptom("g1", day)]]), 200, level: "green")
        try ConsoleClient.setPassword(s.d, "-ward", password)
        try ConsoleClient.setPassword(s.d, "reader", password)
        return s
    }

    /// The scenario with nurse `-ward` signed in on EXP-G's page (holding its form token), and
    /// EXP-G as the API shows it before any form is sent.
    static func nurseOnTheGreenPatientsPage() throws -> (ExportScenario, ConsoleClient, String) {
        let s = try scenario()
        let c = ConsoleClient(s.d)
        try c.signIn("-ward", password)
        _ = try c.get("/console/patients/EXP-G")
        return (s, c, try s.d.request(.get, "/v1/patients/EXP-G", token: s.d.adminToken).text)
    }

    static func order(_ html: String, _ ids: [String]) -> [String] {
        ids.compactMap { id in html.range(of: "data-study-id=\"\(id)\"").map { (id, $0.lowerBound) } }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    @Test func aNurseSignsInAndSeesTheBoardRedFirstThenYellowThenTheRest() throws {
        let s = try Self.scenario()
        let c = ConsoleClient(s.d)
        let board = try c.signIn("-ward", Self.password)
        #expect(board.status == 200)
        #expect(Self.order(board.text, ["EXP-A", "EXP-B", "EXP-G"]) == ["EXP-B", "EXP-A", "EXP-G"])
        #expect(!board.text.contains("data-study-id=\"EXP-C\""), "a withdrawn patient is not on the board to watch")
        #expect(board.text.contains(">RED</span>") && board.text.contains(">YELLOW</span>") && board.text.contains(">GREEN</span>"),
                "the level is a word as well as a colour")
        let all = try c.get("/console/?all=1")
        #expect(all.text.contains("data-study-id=\"EXP-C\"") && all.text.contains("withdrawn"))
        let trail = try s.d.request(.get, "/v1/audit?subject=staff:-ward", token: s.d.adminToken).text
        #expect(trail.contains("console.sign_in") && trail.contains("staff.password"))
    }

    @Test func pagesCarryTheSecurityHeadersAndTheCookieItsFlags() throws {
        let s = try Self.scenario()
        let r = try ConsoleClient(s.d).postSignIn("/console/login", ["name": "-ward", "password": "correct horse battery"])
        #expect(r.status == 303 && r.headers["location"] == "/console/")
        let cookie = r.headers["set-cookie"] ?? ""
        for flag in ["HttpOnly", "SameSite=Strict", "Path=/"] { #expect(cookie.contains(flag), "\(flag) in \(cookie)") }
        #expect(!cookie.contains("Secure"), "plain HTTP without a trusted proxy: no Secure flag")
        let page = try s.d.request(.get, "/console/", contentType: nil, headers: [("Cookie", String(cookie.split(separator: ";")[0]))])
        let csp = page.headers["content-security-policy"] ?? ""
        #expect(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'") && !csp.contains("unsafe-inline"))
        #expect(page.headers["x-content-type-options"] == "nosniff" && page.headers["referrer-policy"] == "no-referrer")
        #expect(page.headers["cache-control"] == "no-store")
        #expect(!page.text.contains("<script") && !page.text.contains("style=\""), "no inline script or style")
    }

    @Test func withoutASessionAPageSendsYouToSignInAndBack() throws {
        let s = try Self.scenario()
        let r = try s.d.request(.get, "/console/patients/EXP-A", contentType: nil)
        #expect(r.status == 303 && r.headers["location"] == "/console/login?next=%2Fconsole%2Fpatients%2FEXP-A")
        let c = ConsoleClient(s.d)
        let signIn = try c.postSignIn("/console/login", ["name": "-ward", "password": Self.password, "next": "/console/patients/EXP-A"])
        #expect(signIn.headers["location"] == "/console/patients/EXP-A")
        let evil = try c.postSignIn("/console/login", ["name": "-ward", "password": Self.password, "next": "//evil.example/x"])
        #expect(evil.headers["location"] == "/console/", "never back to another site")
    }

    @Test func aWrongPasswordIsRefusedNextToTheFormAndLocksTheNameAfterFiveTries() throws {
        let s = try Self.scenario()
        let c = ConsoleClient(s.d)
        for n in 1...5 {
            let r = try c.postSignIn("/console/login", ["name": "-ward", "password": "wrong password \(n)"])
            #expect(r.status == 401 && r.text.contains("The name or password is not right."), "try \(n): \(r.status)")
            #expect(r.headers["set-cookie"] == nil)
        }
        let locked = try c.postSignIn("/console/login", ["name": "-ward", "password": Self.password])
        #expect(locked.status == 429 && locked.headers["retry-after"] != nil, "even the right password waits out the lock")
        let unknown = try c.postSignIn("/console/login", ["name": "nobody", "password": Self.password])
        #expect(unknown.status == 401, "an unknown name reads like a wrong password")
        let trail = try s.d.request(.get, "/v1/audit?subject=staff:-ward", token: s.d.adminToken).text
        #expect(trail.components(separatedBy: "console.lockout").count - 1 == 1, "one audit row per lockout, none per failure")
        #expect(!trail.contains("wrong password"), "a tried password is never stored")
    }

    /// Runs `attempts` requests at once, each on its own thread released together; how many
    /// gave each answer `request` names (an error counts under its description).
    static func burst(_ attempts: Int, _ request: @escaping @Sendable (Int) throws -> String) throws -> [String: Int] {
        let start = DispatchSemaphore(value: 0), group = DispatchGroup()
        let answers = Mutex<[String]>([])
        for n in 0..<attempts {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                start.wait()
                let answer = (try? request(n)) ?? "error"
                answers.withLock { $0.append(answer) }
            }
        }
        for _ in 0..<attempts { start.signal() }
        guard group.wait(timeout: .now() + 120) == .success else { throw TestFailure("the burst did not end within 120 s") }
        return answers.withLock { $0 }.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
    }

    @Test func parallelWrongPasswordsForOneNameGetOnlyFiveChecksAndOneLockout() throws {
        let s = try Self.scenario()
        let attempts = 24   // above the 16 handler threads, below the address's bucket of 30 and its 32 connections
        let tally = try Self.burst(attempts) { n in
            let r = try ConsoleClient(s.d).postSignIn("/console/login", ["name": "-ward", "password": "wrong password \(n)"])
            return r.status == 429 && r.text.contains("for this name") ? "locked" : "\(r.status)"
        }
        #expect(tally == ["401": 5, "locked": attempts - 5], "five passwords checked, every other attempt refused unchecked: \(tally)")
        let locked = try ConsoleClient(s.d).postSignIn("/console/login", ["name": "-ward", "password": Self.password])
        #expect(locked.status == 429 && locked.headers["set-cookie"] == nil, "the right password during the lock opens no session")
        let trail = try s.d.request(.get, "/v1/audit?subject=staff:-ward", token: s.d.adminToken).text
        #expect(trail.components(separatedBy: "console.lockout").count - 1 == 1, "one audit row for the one lockout")
    }

    /// A burst of sign-ins for different names (so no lockout stops them) meets the gate in
    /// front of the password checks: those beyond its running and waiting places are refused at
    /// once with 503 and Retry-After instead of holding handler threads and cores; once the
    /// burst is over a right password signs in.
    @Test func aBurstOfSignInsBeyondThePasswordCheckGateIsRefusedAsBusy() throws {
        let s = try Self.scenario()
        let attempts = 24   // above the gate's eight places at most, below the address's bucket of 30 and its 32 connections
        let tally = try Self.burst(attempts) { n in
            let r = try ConsoleClient(s.d).postSignIn("/console/login", ["name": "nobody-\(n)", "password": "wrong password"])
            return r.status == 503 && r.headers["retry-after"] != nil && r.text.contains("Too many sign-ins") ? "busy" : "\(r.status)"
        }
        #expect((tally["busy"] ?? 0) >= 1 && (tally["401"] ?? 0) >= 1 && tally.count == 2,
                "some checked (401), the rest refused as busy, nothing else: \(tally)")
        let c = ConsoleClient(s.d)
        try c.signIn("-ward", Self.password)
    }

    @Test func aPostWithoutTheCSRFTokenIsRefusedAndChangesNothing() throws {
        let s = try Self.scenario()
        let c = ConsoleClient(s.d)
        try c.signIn("-ward", Self.password)
        guard case .number(let id)? = s.alertB["id"] else { throw TestFailure("no alert id") }
        let refused = try c.post("/console/alerts/\(Int(id))/acknowledge", ["note": "seen"], csrf: false)
        #expect(refused.status == 403 && refused.text.contains("security token"))
        let forged = try c.post("/console/alerts/\(Int(id))/acknowledge", ["note": "seen", "csrf": String(repeating: "0", count: 64)], csrf: false)
        #expect(forged.status == 403)
        let crossSite = try c.post("/console/alerts/\(Int(id))/acknowledge", ["note": "seen"], headers: [("Origin", "https://evil.example")])
        #expect(crossSite.status == 403)
        let alert = try s.d.request(.get, "/v1/alerts?open=true", token: s.d.adminToken).text
        #expect(alert.contains("\"state\":\"open\""), "still open: \(alert)")
        _ = try c.get("/console/alerts")
        let ack = try c.post("/console/alerts/\(Int(id))/acknowledge", ["note": "<b>called</b>", "back": "inbox"])
        #expect(ack.status == 303 && ack.headers["location"] == "/console/alerts#alert-\(Int(id))")
        let inbox = try c.get("/console/alerts")
        #expect(inbox.text.contains("&lt;b&gt;called&lt;/b&gt;") && !inbox.text.contains("<b>called</b>"), "a note is escaped")
        #expect(inbox.text.contains("data-alert-id=\"\(Int(id))\" data-state=\"acknowledged\""))
    }

    @Test func anInvalidLabValueIsShownAtItsFieldAndNothingIsStored() throws {
        let (s, c, before) = try Self.nurseOnTheGreenPatientsPage()
        for (value, words) in [("99", "sodium"), ("abc", "sodium"), ("", "sodium")] {
            let r = try c.post("/console/patients/EXP-G/labs", ["sodium": value])
            #expect(r.status == 400, "\(value): \(r.status)")
            #expect(r.text.contains("id=\"lab-sodium-error\""), "the message sits at the field for \(value)")
            #expect(r.text.contains("aria-invalid=\"true\" aria-describedby=\"lab-\(words)-error\""))
        }
        let future = try c.post("/console/patients/EXP-G/labs", ["sodium": "135", "time": "2099-01-01T08:00"])
        #expect(future.status == 400 && future.text.contains("id=\"lab-time-error\""))
        #expect(try s.d.request(.get, "/v1/patients/EXP-G", token: s.d.adminToken).text == before, "nothing stored")
        let ok = try c.post("/console/patients/EXP-G/labs", ["sodium": "128,5"])
        #expect(ok.status == 303 && ok.headers["location"] == "/console/patients/EXP-G#labs")
        let page = try c.get("/console/patients/EXP-G")
        #expect(page.text.contains("128.5"), "the decimal comma was read")
        #expect(page.text.contains("data-study-id") == false)
        let trail = try s.d.request(.get, "/v1/audit?subject=EXP-G", token: s.d.adminToken).text
        #expect(trail.contains("lab.add") && trail.contains("staff:-ward"))
    }

    @Test func aLabTimeThatIsNotAPlainWallClockTimeIsRefusedAtItsField() throws {
        let (s, c, before) = try Self.nurseOnTheGreenPatientsPage()
        let day = Study.date(-2)
        for time in ["\(day)T08:30junk", "\(day)T08:30:00Z", "\(day)T08:30+05:00", "\(day)T24:00", "\(day)T08:61", "\(day)T08:30:99"] {
            let r = try c.post("/console/patients/EXP-G/labs", ["sodium": "135", "time": time])
            #expect(r.status == 400, "\(time): \(r.status)")
            #expect(r.text.contains("id=\"lab-time-error\"") && r.text.contains("aria-describedby=\"lab-time-error\""), "\(time) at its field")
        }
        #expect(try s.d.request(.get, "/v1/patients/EXP-G", token: s.d.adminToken).text == before, "nothing stored")
        let ok = try c.post("/console/patients/EXP-G/labs", ["sodium": "135", "time": "\(day)T08:30:15"])
        #expect(ok.status == 303, "seconds, as a browser may send them")
        let labs = try s.d.request(.get, "/v1/patients/EXP-G", token: s.d.adminToken).text
        #expect(labs.contains("\(day)T08:30:15"), "stored at the time typed: \(labs.prefix(600))")
    }

    @Test func thePatientPageDrawsTheChartsWithTextAlternativesAndTheDayTable() throws {
        let s = try Self.scenario()
        let c = ConsoleClient(s.d)
        try c.signIn("-ward", Self.password)
        let page = try c.get("/console/patients/EXP-A")
        #expect(page.status == 200)
        #expect(page.text.components(separatedBy: "<svg").count - 1 == 6, "six trend charts")
        #expect(page.text.contains("<title id=\"chart-") && page.text.contains("<desc id=\"chart-"))
        #expect(page.text.contains("href=\"#table-weight") || page.text.contains("href=\"#table-"))
        #expect(page.text.contains("Kat A") && page.text.contains("id=\"day-table\""))
        #expect(page.text.contains("weight_gain_pct") || page.text.contains("fluid_over_limit"), "reasons with their codes")
        #expect(try c.get("/console/patients/NOPE-1").status == 404)
        #expect(page.text.contains("href=\"/console/patients/EXP-A/report.pdf\""))
        let pdf = try c.get("/console/patients/EXP-A/report.pdf")
        #expect(pdf.status == 200 && pdf.headers["content-type"] == "application/pdf" && (pdf.headers["content-disposition"] ?? "").contains(".pdf"))
        let trail = try s.d.request(.get, "/v1/audit?subject=EXP-A", token: s.d.adminToken).text
        #expect(trail.contains("export.report") && trail.contains("staff:-ward"), "the console's report is audited as the nurse")
    }

    @Test func aViewerSeesEverythingAndNoFormsAndCannotPost() throws {
        let s = try Self.scenario()
        let c = ConsoleClient(s.d)
        try c.signIn("reader", Self.password)
        let page = try c.get("/console/patients/EXP-B")
        #expect(page.status == 200 && !page.text.contains("id=\"lab-form\"") && !page.text.contains("/acknowledge\""))
        let r = try c.post("/console/patients/EXP-B/labs", ["sodium": "130"])
        #expect(r.status == 403)
        #expect(try c.get("/console/sync").status == 403, "the sync page is for admins")
    }

    @Test func signingOutEndsTheSessionAndAPasswordChangeEndsTheOthers() throws {
        let s = try Self.scenario()
        let a = ConsoleClient(s.d), b = ConsoleClient(s.d)
        try a.signIn("-ward", Self.password)
        try b.signIn("-ward", Self.password)
        let out = try a.post("/console/logout", [:])
        #expect(out.status == 303 && out.headers["location"] == "/console/login" && (out.headers["set-cookie"] ?? "").contains("Max-Age=0"))
        #expect(try a.get("/console/").status == 303, "the signed-out session no longer works")
        #expect(try b.get("/console/").status == 200, "the other session still does")
        try ConsoleClient.setPassword(s.d, "-ward", "a new long password", token: s.nurse)   // the member themself
        #expect(try b.get("/console/").status == 303, "a new password ends every session")
        try b.signIn("-ward", "a new long password")
        let rotated = try s.d.request(.post, "/v1/staff/-ward/rotation", token: s.d.adminToken)
        #expect(rotated.status == 200)
        #expect(try b.get("/console/").status == 303, "rotating the token ends the sessions too")
        let trail = try s.d.request(.get, "/v1/audit?subject=staff:-ward", token: s.d.adminToken).text
        #expect(trail.contains("console.sign_out"))
    }

    @Test func signingOutWithAnEndedOrUnknownSessionStillClearsTheCookieAndGoesToSignIn() throws {
        let s = try Self.scenario()
        let a = ConsoleClient(s.d), b = ConsoleClient(s.d)
        try a.signIn("-ward", Self.password)
        _ = try a.get("/console/")
        let form = a.csrf
        try ConsoleClient.setPassword(s.d, "-ward", "a new long password", token: s.nurse)   // ends the session
        b.cookie = "ht_session=htc_" + String(repeating: "0", count: 64)                     // never issued
        for (client, what) in [(a, "ended"), (b, "unknown")] {
            let out = try client.post("/console/logout", form.map { ["csrf": $0] } ?? [:], csrf: false)
            let cookie = out.headers["set-cookie"] ?? ""
            #expect(out.status == 303 && out.headers["location"] == "/console/login", "\(what): \(out.status) \(out.text.prefix(300))")
            #expect(cookie.hasPrefix("ht_session=;") && cookie.contains("Max-Age=0"), "\(what): \(cookie)")
        }
        let crossSite = try b.post("/console/logout", [:], headers: [("Origin", "https://evil.example")])
        #expect(crossSite.status == 403, "a form from another site is still refused")
        // With a live session the form's token is still required, and nothing ends without it.
        let c = ConsoleClient(s.d)
        try c.signIn("-ward", "a new long password")
        #expect(try c.post("/console/logout", [:], csrf: false).status == 403)
        #expect(try c.get("/console/").status == 200, "still signed in")
    }

    @Test func aPasswordIsSetOnlyByAnAdminOrTheMemberAndMustBeLongEnough() throws {
        let s = try Self.scenario()
        let short = try s.d.request(.put, "/v1/staff/reader/password", token: s.d.adminToken, body: ["password": "short"])
        #expect(short.status == 400 && short.text.contains("\"field\":\"password\""), "\(short.text)")
        let other = try s.d.request(.put, "/v1/staff/reader/password", token: s.nurse, body: ["password": "long enough password"])
        #expect(other.status == 403)
        let cli = try CLIRunner.run(["staff", "passwd", "reader"], server: s.d.baseURL, token: s.d.adminToken, stdin: "via the cli 123\n")
        #expect(cli.status == 0, "\(cli.stderr)")
        try ConsoleClient(s.d).signIn("reader", "via the cli 123")
        let empty = try CLIRunner.run(["staff", "passwd", "reader"], server: s.d.baseURL, token: s.d.adminToken, stdin: "")
        #expect(empty.status == 1 && empty.stderr.contains("no password"))
    }

    @Test func theLanguageSwitchAndAcceptLanguageGiveGermanPages() throws {
        let s = try Self.scenario()
        let c = ConsoleClient(s.d)
        try c.signIn("-ward", Self.password)
        let german = try c.get("/console/", headers: [("Accept-Language", "de-DE,de;q=0.9")])
        #expect(german.text.contains("<html lang=\"de\"") && german.text.contains("Stationsübersicht") && german.text.contains(">ROT</span>"))
        let sw = try c.get("/console/language?to=en&back=%2Fconsole%2Falerts")
        #expect(sw.status == 303 && sw.headers["location"] == "/console/alerts")
        c.cookie = [c.cookie!, String((sw.headers["set-cookie"] ?? "").split(separator: ";")[0])].joined(separator: "; ")
        let english = try c.get("/console/", headers: [("Accept-Language", "de-DE")])
        #expect(english.text.contains("Ward board"), "the switch wins over Accept-Language")
    }
}
