import Foundation
import Testing
import HTJSON

/// Single sign-on (docs/product.md, third round, T) against the real daemon and a real OpenID
/// provider (glewlwyd, scripts/oidc-provider) behind the tampering proxy: members are created
/// from their groups or matched by name, then bound to the provider's subject; a replayed
/// state, a swapped nonce, a token request without the PKCE verifier, an altered, `alg: none` or
/// unknown-`kid` ID token are refused with nothing created; codes, tokens and the client secret
/// never reach the daemon's log.
@Suite(.serialized) struct SingleSignOnTests {
    static func config(_ rig: OIDCRig, extra: String = "") throws -> ConfigDirectory {
        let dir = try ConfigDirectory(server: """
            {"console": {"requireMFA": true, "mfaKeyFile": "mfa-key", \(extra)
              "oidc": {"issuer": "\(rig.issuer)", "clientId": "hyponatrack", "clientSecretFile": "\(rig.clientSecretFile)",
                       "redirectURL": "\(OIDCRig.redirectURL)", "scopes": ["openid"], "caFile": "\(rig.ca)",
                       "displayName": "Hospital Login", "groupsClaim": "groups",
                       "roles": {"ward-nurses": "nurse", "study-admins": "admin"}, "sites": {"ward-nurses": ["main"]}}},
             "rules": {"riskModel": "risk-model.json", "thresholds": "thresholds.json",
                       "reminders": "reminders.json", "instructions": "instructions.json"}}
            """)
        try dir.write(String(repeating: "ab", count: 32) + "\n", to: "mfa-key", mode: 0o600)
        return dir
    }

    /// The browser's side: the start (its pre-session cookie), the provider, the callback.
    struct Browser {
        let d: TestDaemon
        var preSession = ""

        mutating func start() throws -> String {
            let r = try d.request(.get, "/console/oidc/start?next=/console/alerts", contentType: nil)
            #expect(r.status == 303, "\(r.status) \(r.text.prefix(300))")
            let set = try #require(r.headers.values(for: "set-cookie").first { $0.hasPrefix("ht_oidc=") })
            #expect(set.contains("SameSite=Lax") && set.contains("HttpOnly") && set.contains("Path=/console/oidc/"))
            preSession = String(set.split(separator: ";")[0])
            return try #require(r.headers["location"])
        }

        func callback(_ back: URLComponents) throws -> TestDaemon.Response {
            try d.request(.get, "/console/oidc/callback?" + (back.percentEncodedQuery ?? ""), contentType: nil,
                          headers: [("Cookie", preSession)])
        }
    }

    static func sessionCookie(_ r: TestDaemon.Response) -> String? {
        r.headers.values(for: "set-cookie").first { $0.hasPrefix("ht_session=") && !$0.contains("Max-Age=0") }
            .map { String($0.split(separator: ";")[0]) }
    }

    @Test func aMemberIsCreatedFromTheirGroupsBoundToTheSubjectAndSignedInByAContinuePageWithoutTheMFAStep() throws {
        let rig = try OIDCRig()
        let dir = try Self.config(rig)
        let d = try TestDaemon(configFile: dir.serverFile)
        let page = try d.request(.get, "/console/login", contentType: nil)
        #expect(page.text.contains("href=\"/console/oidc/start?next=%2Fconsole%2F\"") && page.text.contains("Sign in with Hospital Login"))

        var browser = Browser(d: d)
        let location = try browser.start()
        #expect(location.hasPrefix(rig.issuer + "/auth?") && location.contains("code_challenge_method=S256") && location.contains("nonce="))
        let back = try rig.authorize(location, user: "max@clinic.example", password: "max-password-12")
        let code = try #require(back.queryItems?.first { $0.name == "code" }?.value)
        let signedIn = try browser.callback(back)
        #expect(signedIn.status == 200, "\(signedIn.status) \(signedIn.text.prefix(400))")
        // The continue page: a meta refresh and a link to where the member was going, no script.
        #expect(signedIn.text.contains("<meta http-equiv=\"refresh\" content=\"0;url=/console/alerts\">"))
        #expect(signedIn.text.contains("href=\"/console/alerts\"") && !signedIn.text.contains("<script"))
        let cookie = try #require(Self.sessionCookie(signedIn))
        // Groups ward-nurses and study-admins: the highest role; admins work for every site.
        // requireMFA covers password sign-in only: the board, not the set-up page.
        let board = try d.request(.get, "/console/", contentType: nil, headers: [("Cookie", cookie)])
        #expect(board.status == 200 && board.text.contains("max@clinic.example"), "\(board.status)")
        let staff = try d.request(.get, "/v1/staff", token: d.adminToken).text
        #expect(staff.contains("\"name\":\"max@clinic.example\"") && staff.contains("\"role\":\"admin\""), "\(staff)")
        let audit = try d.request(.get, "/v1/audit?subject=staff:max@clinic.example", token: d.adminToken).text
        #expect(audit.contains("staff.add") && audit.contains("staff.oidc_bind") && audit.contains("console.sign_in"), "\(audit)")

        // The same answer again (a replayed state): refused, no second session.
        let replay = try browser.callback(back)
        #expect(replay.status == 400 && Self.sessionCookie(replay) == nil && replay.text.contains("already used"))

        // Nothing secret in the log: not the code, not the client secret, not a token.
        let secret = try String(contentsOfFile: rig.clientSecretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!d.log.contains(code) && !d.log.contains(secret) && !d.log.contains("eyJ"), "\(d.log)")
        // A warning is written at once, but the test reads the daemon's stderr through a pipe: under
        // load (a full test run) the line can arrive a moment after the answer.
        try waitUntil(timeout: 10) { d.log.contains("single sign-on refused") && d.log.contains("unknown_state") }

        // Signing out leads to the provider's end_session_endpoint by a page, not a redirect.
        let signedInPage = try d.request(.get, "/console/", contentType: nil, headers: [("Cookie", cookie)])
        let csrf = try #require(ConsoleClient.csrfToken(in: signedInPage.text))
        let out = try d.request(.post, "/console/logout", raw: Array("csrf=\(csrf)".utf8), contentType: "application/x-www-form-urlencoded",
                                headers: [("Cookie", cookie)])
        #expect(out.status == 200 && out.text.contains("content=\"0;url=\(rig.issuer)/end_session?client_id=hyponatrack"), "\(out.text.prefix(600))")
    }

    @Test func anExistingStaffNameIsMatchedThenBoundAndSomeoneWithoutAMappedGroupIsRefusedSayingWhy() throws {
        let rig = try OIDCRig(alg: "ES256")
        let dir = try Self.config(rig)
        let d = try TestDaemon(configFile: dir.serverFile)
        _ = try Study.staff(d, "anna.nurse", role: "viewer")
        var browser = Browser(d: d)
        let annaBack = try rig.authorize(try browser.start(), user: "anna.nurse", password: "anna-password-1")
        let anna = try browser.callback(annaBack)
        #expect(anna.status == 200 && Self.sessionCookie(anna) != nil,
                "\(anna.status) \(anna.text.prefix(300)) — the daemon's refusals: \(d.log.split(separator: "\n").filter { $0.contains("refused") })")
        // Matched by name: the role stays the one the study gave (viewer), not the group's.
        #expect(try d.request(.get, "/v1/staff", token: d.adminToken).text.contains("\"role\":\"viewer\""))

        var outsider = Browser(d: d)
        let before = try d.request(.get, "/v1/staff", token: d.adminToken).text
        let outsiderBack = try rig.authorize(try outsider.start(), user: "otto.outsider", password: "otto-password-1")
        let refused = try outsider.callback(outsiderBack)
        #expect(refused.status == 403 && Self.sessionCookie(refused) == nil)
        #expect(refused.text.contains("none of your groups gives a role here"), "\(refused.text.prefix(500))")
        #expect(try d.request(.get, "/v1/staff", token: d.adminToken).text == before)

        // In German too.
        var de = Browser(d: d)
        let location = try de.start()
        let back = try rig.authorize(location, user: "otto.outsider", password: "otto-password-1")
        let german = try d.request(.get, "/console/oidc/callback?" + (back.percentEncodedQuery ?? ""), contentType: nil,
                                   headers: [("Cookie", de.preSession + "; ht_lang=de")])
        #expect(german.status == 403 && german.text.contains("keine Ihrer Gruppen gibt hier eine Rolle"))
        // The pages of the callback never carry its query (the code) on: the language switch goes to the sign-in page.
        let code = try #require(back.queryItems?.first { $0.name == "code" }?.value)
        #expect(!german.text.contains(code) && !refused.text.contains("code%3D"))
    }

    /// Each mode of the proxy and the refusal the daemon logs for it: its reason and, for a
    /// token, the check that failed.
    @Test(arguments: [("swap-nonce", "reason=invalid_token", "check=nonce"), ("tamper-payload", "reason=invalid_token", "check=signature"),
                      ("alg-none", "reason=invalid_token", "alg none is not RS256 or ES256"),
                      ("unknown-kid", "reason=invalid_token", "kid not in the provider's key set"),
                      ("drop-verifier", "reason=provider_error", "token endpoint answered 4")])
    func aTokenTamperedOnTheWayIsRefusedWithNothingCreated(mode: String, reason: String, check: String) throws {
        let rig = try OIDCRig()
        let dir = try Self.config(rig)
        let d = try TestDaemon(configFile: dir.serverFile)
        let before = try d.request(.get, "/v1/staff", token: d.adminToken).text
        var browser = Browser(d: d)
        let location = try browser.start()
        try rig.tamper(mode)
        let back = try rig.authorize(location, user: "max@clinic.example", password: "max-password-12")
        let code = back.queryItems?.first { $0.name == "code" }?.value ?? "no code"
        let refused = try browser.callback(back)
        #expect(refused.status == 403 && Self.sessionCookie(refused) == nil, "\(mode): \(refused.status) \(refused.text.prefix(300))")
        #expect(try d.request(.get, "/v1/staff", token: d.adminToken).text == before, "\(mode)")
        let line = d.log.split(separator: "\n").first { $0.contains("single sign-on refused") } ?? ""
        #expect(line.contains(reason) && line.contains(check), "\(mode): \(d.log)")
        #expect(!d.log.contains(code) && !d.log.contains("eyJ"), "\(mode)")
    }

    @Test func withPasswordSignInOffTheFormIsGoneAndItsPostRefused() throws {
        let rig = try OIDCRig()
        let dir = try Self.config(rig, extra: "\"passwordSignIn\": false,")
        let d = try TestDaemon(configFile: dir.serverFile)
        _ = try Study.staff(d, "pw.nurse", role: "nurse")
        try ConsoleClient.setPassword(d, "pw.nurse", "correct horse battery")
        let page = try d.request(.get, "/console/login", contentType: nil)
        #expect(page.text.contains("Sign in with Hospital Login") && !page.text.contains("type=\"password\""))
        let post = try ConsoleClient(d).postSignIn("/console/login", ["name": "pw.nurse", "password": "correct horse battery"])
        #expect(post.status == 403 && Self.sessionCookie(post) == nil)
    }
}
