import Foundation
import Testing
import HTJSON

/// Signing out of the web check-in (`POST /app/signout`): the token cookie is cleared; a live
/// token's form needs its CSRF token, and a dead token (reissued code, expired) still signs out.
@Suite struct PatientSignOutTests {
    static func clearsTheCookie(_ r: TestDaemon.Response) -> Bool {
        let set = r.headers["set-cookie"] ?? ""
        return r.status == 303 && r.headers["location"] == "/app/activate" && set.hasPrefix("ht_patient=;") && set.contains("Max-Age=0")
    }

    @Test func aSignedInPatientSignsOutWithTheFormsTokenOnly() throws {
        let d = try TestDaemon()
        let (c, _) = try PatientAppTests.activate(d, "OUT-1", code: try PatientAppTests.enroll(d, "OUT-1"))
        _ = try c.get("/app/")
        let forged = try c.post("/app/signout", [:], csrf: false)
        #expect(forged.status == 403, "no token: \(forged.status)")
        #expect(try c.get("/app/").status == 200, "still signed in")
        let out = try c.post("/app/signout", [:])
        #expect(Self.clearsTheCookie(out), "\(out.status) \(out.headers)")
    }

    @Test func aPatientWhoseTokenEndedIsStillSignedOutAndTheDeadCookieCleared() throws {
        let d = try TestDaemon()
        let (c, _) = try PatientAppTests.activate(d, "OUT-2", code: try PatientAppTests.enroll(d, "OUT-2"))
        _ = try c.get("/app/")
        let reissue = try d.request(.post, "/v1/patients/OUT-2/activation", token: d.adminToken)
        #expect(reissue.status == 200 || reissue.status == 201, "\(reissue.text)")
        #expect(try c.get("/app/").status == 303, "the old token no longer signs in")
        let out = try c.post("/app/signout", [:])
        #expect(Self.clearsTheCookie(out), "\(out.status) \(out.text.prefix(300))")
        let unknown = ConsoleClient(d)
        unknown.cookie = "ht_patient=" + String(repeating: "a", count: 43)
        #expect(Self.clearsTheCookie(try unknown.post("/app/signout", [:], csrf: false)), "a token never issued")
        let crossSite = try unknown.post("/app/signout", [:], csrf: false, headers: [("Origin", "https://evil.example")])
        #expect(crossSite.status == 403, "a form from another site is still refused")
    }

    /// Security review, finding 4: a loan phone handed on after sign-out keeps no working token.
    @Test func signingOutRevokesTheBrowsersTokenForTheCheckInAndTheAPIAndAuditsIt() throws {
        let d = try TestDaemon()
        let (c, _) = try PatientAppTests.activate(d, "OUT-3", code: try PatientAppTests.enroll(d, "OUT-3"))
        let cookie = try #require(c.cookie)
        let token = String(cookie.dropFirst("ht_patient=".count))
        #expect(try d.request(.get, "/v1/me/today", token: token).status == 200, "the web token works on the API too")
        _ = try c.get("/app/")
        #expect(Self.clearsTheCookie(try c.post("/app/signout", [:])))
        c.cookie = cookie
        #expect(try c.get("/app/").status == 303, "the old cookie no longer signs in")
        let api = try d.request(.get, "/v1/me/today", token: token)
        #expect(api.status == 401, "the old token is revoked for /v1/me/*: \(api.status)")
        let trail = try d.request(.get, "/v1/audit?subject=OUT-3", token: d.adminToken).text
        #expect(trail.contains("patient.sign_out") && trail.contains("127.0.0.1"), "\(trail.prefix(1500))")
    }
}
