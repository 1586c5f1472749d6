import Foundation
import Testing
import HTJSON

/// Security review, finding 1: the two forms that sign someone in (`/console/login`,
/// `/app/activate`) could be posted from another site — a sandboxed iframe sends `Origin: null`
/// — and replaced the victim's session with the attacker's, filing the victim's checks under the
/// attacker's study ID. Now a post that did not come from our own pages is refused (403, nothing
/// changed): by fetch metadata, by `Origin`, and by the forms' pre-session token (double-submit
/// cookie), which also holds for a client that sends no fetch metadata. The browser side of the
/// attack is reproduced end to end in scripts/browser-test.
@Suite struct SignInFormCSRFTests {
    static let password = "correct horse battery"

    /// A daemon with a nurse who has a console password and an enrolled, not yet activated patient.
    static func scenario() throws -> (d: TestDaemon, code: String) {
        let d = try TestDaemon()
        _ = try Study.staff(d, "-ward", role: "nurse")
        try ConsoleClient.setPassword(d, "-ward", password)
        return (d, try PatientAppTests.enroll(d, "CSRF-1"))
    }

    /// Each anonymous form with fields that would sign in for real.
    static func forms(code: String) -> [(path: String, fields: [String: String], cookie: String)] {
        [("/console/login", ["name": "-ward", "password": password], "ht_session="),
         ("/app/activate", ["studyId": "CSRF-1", "code": code], "ht_patient=")]
    }

    static func signedIn(_ r: TestDaemon.Response, _ cookie: String) -> Bool {
        r.headers.values(for: "set-cookie").contains { $0.hasPrefix(cookie) && !$0.contains("Max-Age=0") }
    }

    @Test func aPostFromAnotherSiteIsRefusedOnEverySignInFormWhateverTheTokenSays() throws {
        let (d, code) = try Self.scenario()
        let foreign: [(String, [(String, String)])] = [
            ("Origin: null without fetch metadata (an old browser's sandboxed iframe)", [("Origin", "null")]),
            ("a sandboxed iframe in chromium", [("Origin", "null"), ("Sec-Fetch-Site", "cross-site")]),
            ("Sec-Fetch-Site: cross-site", [("Sec-Fetch-Site", "cross-site")]),
            ("Sec-Fetch-Site: same-site (a sibling subdomain)", [("Sec-Fetch-Site", "same-site")]),
            ("a foreign origin", [("Origin", "https://evil.example")]),
            ("a foreign origin that claims same-origin", [("Origin", "https://evil.example"), ("Sec-Fetch-Site", "same-origin")]),
        ]
        for form in Self.forms(code: code) {
            for (what, headers) in foreign {
                // A client that holds a valid pre-session cookie and token: only the origin decides.
                let c = ConsoleClient(d)
                let r = try c.postSignIn(form.path, form.fields, headers: headers)
                #expect(r.status == 403, "\(form.path), \(what): \(r.status)")
                #expect(!Self.signedIn(r, form.cookie), "\(form.path), \(what): no session")
                #expect(r.text.contains("from another site"), "\(form.path), \(what): says why")
            }
        }
        // Nothing changed: the code still activates, and the password still signs in.
        let (patient, _) = try PatientAppTests.activate(d, "CSRF-1", code: code)
        #expect(try patient.get("/app/").status == 200)
        try ConsoleClient(d).signIn("-ward", Self.password)
    }

    @Test func chromiumsOwnSameOriginFormPostWithOriginNullIsAccepted() throws {
        let (d, code) = try Self.scenario()
        for form in Self.forms(code: code) {
            let r = try ConsoleClient(d).postSignIn(form.path, form.fields,
                                                    headers: [("Origin", "null"), ("Sec-Fetch-Site", "same-origin")])
            #expect(r.status == 303 && Self.signedIn(r, form.cookie), "\(form.path): \(r.status) \(r.text.prefix(300))")
        }
    }

    @Test func withoutFetchMetadataTheFormsPreSessionTokenDecides() throws {
        let (d, code) = try Self.scenario()
        for form in Self.forms(code: code) {
            // No cookie and no token (curl, or another site's form in a browser without fetch metadata).
            let bare = try ConsoleClient(d).post(form.path, form.fields, csrf: false)
            #expect(bare.status == 403 && !Self.signedIn(bare, form.cookie), "\(form.path) bare: \(bare.status)")
            #expect(bare.text.contains("security token"), "\(form.path): says why")
            // The cookie without the token.
            let c = ConsoleClient(d)
            _ = try c.get(form.path)
            #expect(c.formCookie != nil, "showing the form sets the pre-session cookie")
            let noToken = try c.post(form.path, form.fields, csrf: false)
            #expect(noToken.status == 403 && !Self.signedIn(noToken, form.cookie), "\(form.path) cookie only: \(noToken.status)")
            // A token that belongs to another browser's cookie.
            let other = ConsoleClient(d)
            _ = try other.get(form.path)
            c.csrf = other.csrf
            let swapped = try c.post(form.path, form.fields)
            #expect(swapped.status == 403 && !Self.signedIn(swapped, form.cookie), "\(form.path) another's token: \(swapped.status)")
            // A cookie value we could not have set.
            let forged = ConsoleClient(d)
            _ = try forged.get(form.path)
            forged.formCookie = "ht_form=htf_" + String(repeating: "0", count: 64)
            let r = try forged.post(form.path, form.fields)
            #expect(r.status == 403, "\(form.path) forged cookie: \(r.status)")
        }
        // None of it used the code or opened a session.
        let (patient, _) = try PatientAppTests.activate(d, "CSRF-1", code: code)
        #expect(try patient.get("/app/").status == 200)
    }

    @Test func thePreSessionCookieIsStrictHttpOnlyAndTheFormCarriesOnlyADerivedToken() throws {
        let (d, _) = try Self.scenario()
        for path in ["/console/login", "/app/activate"] {
            let page = try d.request(.get, path, contentType: nil)
            let set = page.headers.values(for: "set-cookie").first { $0.hasPrefix("ht_form=") } ?? ""
            for flag in ["HttpOnly", "SameSite=Strict", "Path=/"] { #expect(set.contains(flag), "\(path): \(flag) in \(set)") }
            let value = String(set.split(separator: ";")[0].dropFirst("ht_form=".count))
            let token = ConsoleClient.csrfToken(in: page.text) ?? ""
            #expect(token.count == 64 && !page.text.contains(value), "\(path): the page holds a token, never the cookie")
            // A browser that already holds one keeps it.
            let again = try d.request(.get, path, contentType: nil, headers: [("Cookie", "ht_form=\(value)")])
            #expect(!again.headers.values(for: "set-cookie").contains { $0.hasPrefix("ht_form=") }, "\(path): not replaced")
            #expect(ConsoleClient.csrfToken(in: again.text) == token, "\(path): the same token for the same cookie")
        }
    }

    @Test func activatingAnotherStudyIdInASignedInBrowserAsksFirstAndThenSignsTheOldOneOut() throws {
        let d = try TestDaemon()
        let (c, _) = try PatientAppTests.activate(d, "SWITCH-A", code: try PatientAppTests.enroll(d, "SWITCH-A"))
        let oldCookie = c.cookie
        let codeB = try PatientAppTests.enroll(d, "SWITCH-B")
        let today = try c.get("/app/")
        #expect(today.text.contains("Study ID SWITCH-A"), "the check-in page shows whose it is")
        // The activation page itself sends a signed-in browser to its today page; a form posted
        // from an older tab reaches the server with the live cookie. Its form, as that tab shows it:
        let activate = try c.get("/app/activate")
        #expect(activate.status == 303 && activate.headers["location"] == "/app/")
        let formCookie = try #require(c.formCookie)
        c.csrf = ConsoleClient.csrfToken(in: try d.request(.get, "/app/activate", contentType: nil, headers: [("Cookie", formCookie)]).text)
        let asked = try c.post("/app/activate", ["studyId": "SWITCH-B", "code": codeB])
        #expect(asked.status == 409 && !Self.signedIn(asked, "ht_patient="), "asks before switching: \(asked.status)")
        #expect(asked.text.contains("signed in for study ID SWITCH-A"), "names the study ID now signed in")
        #expect(PatientAppTests.message(asked.text, at: "switch") != nil, "the question is at its box")
        #expect(try c.get("/app/").text.contains("Study ID SWITCH-A"), "still SWITCH-A")
        #expect(asked.text.contains("value=\"\(codeB)\""), "what was typed is kept for the confirmation")
        c.csrf = ConsoleClient.csrfToken(in: asked.text)      // the form on the page that asked
        let switched = try c.post("/app/activate", ["studyId": "SWITCH-B", "code": codeB, "switch": "1"])
        #expect(switched.status == 303 && Self.signedIn(switched, "ht_patient="), "confirmed: \(switched.status) \(switched.text.components(separatedBy: "role=\"alert\">").last?.prefix(300) ?? "")")
        let newCookie = switched.headers.values(for: "set-cookie").first { $0.hasPrefix("ht_patient=") }.map { String($0.split(separator: ";")[0]) }
        c.cookie = newCookie
        #expect(try c.get("/app/").text.contains("Study ID SWITCH-B"))
        // The old browser token is revoked, and that is audited with the address.
        c.cookie = oldCookie
        #expect(try c.get("/app/").status == 303, "SWITCH-A's web token no longer signs in")
        let trail = try d.request(.get, "/v1/audit?subject=SWITCH-A", token: d.adminToken).text
        #expect(trail.contains("patient.sign_out") && trail.contains("SWITCH-B"), "\(trail.prefix(1500))")
    }

    @Test func aSuccessfulActivationIsAuditedWithTheClientsAddress() throws {
        let d = try TestDaemon()
        _ = try PatientAppTests.activate(d, "AUD-1", code: try PatientAppTests.enroll(d, "AUD-1"))
        let trail = try d.request(.get, "/v1/audit?subject=AUD-1", token: d.adminToken)
        guard case .array(let entries) = trail.json else { Issue.record("audit: \(trail.text.prefix(300))"); return }
        let success = entries.compactMap { e -> JSONObject? in
            guard case .object(let o) = e, o["action"] == "activation.success" else { return nil }
            return o
        }
        #expect(success.count == 1)
        if case .object(let details)? = success.first?["details"] {
            #expect(details["ip"] == "127.0.0.1", "\(details)")
        } else {
            Issue.record("no details: \(success)")
        }
    }
}
