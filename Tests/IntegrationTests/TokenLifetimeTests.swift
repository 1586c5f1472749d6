import Foundation
import Testing
import HTJSON

/// Token lifetimes against the real daemon: patient tokens expire after the monitoring window
/// (`tokens.patientDaysAfterMonitoring`), staff tokens are rotated with `hyponatrack staff
/// rotate`. The daemon reads the system clock, so the expired patient had surgery long ago.
@Suite struct TokenLifetimeTests {
    /// Past the lifetime no token is handed out at all: activating with the right code is
    /// refused up front (410 `expired`, saying why) instead of returning a token whose first
    /// use gets 401 `expired_token`, and `hyponatrack reissue` prints no code that could not work.
    @Test func longAfterTheMonitoringWindowActivationIsRefusedAsExpiredAndReissuePrintsNoCode() throws {
        // Surgery 40 days ago: the window (POD 1–14) ended 26 days ago, beyond a 20-day lifetime.
        let config = try ConfigDirectory(server: #"{"tokens": {"patientDaysAfterMonitoring": 20}}"#)
        let d = try TestDaemon(configFile: config.serverFile)
        let e = try d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("LIFE-OLD", surgeryDaysAgo: 40))
        guard e.status == 201, case .string(let code)? = e["activationCode"] else { Issue.record("enrol: \(e.text)"); return }
        let refused = try d.request(.post, "/v1/activate", body: ["studyId": "LIFE-OLD", "code": .string(code)])
        #expect(refused.status == 410 && refused.errorCode == "expired", "\(refused.text)")
        #expect(refused.text.contains("access ended on \(Study.date(-6))") && !refused.text.contains("\"token\""), "\(refused.text)")
        let reissue = try CLIRunner.run(["reissue", "LIFE-OLD"], server: d.baseURL, token: d.adminToken)
        #expect(reissue.status == 1, "\(reissue.stdout)\(reissue.stderr)")
        #expect(reissue.stderr.contains("ended on \(Study.date(-6))") && reissue.stderr.contains("none was issued"), "\(reissue.stderr)")
        #expect(!reissue.stdout.contains("activation code"), "\(reissue.stdout)")
        let current = try Study.enrollAndActivate(d, "LIFE-NOW", surgeryDaysAgo: 6)
        #expect(try d.request(.get, "/v1/me/today", token: current).status == 200, "a patient still in monitoring is not affected")
        // With the default 30 days the same patient (26 days after the window) still gets in.
        let lenient = try TestDaemon()
        let token = try Study.enrollAndActivate(lenient, "LIFE-OLD", surgeryDaysAgo: 40)
        #expect(try lenient.request(.get, "/v1/me/today", token: token).status == 200)
    }

    /// The daemon remembers tokens it has checked (`TokenCache`); a corrected surgery date
    /// still moves the token's end from the next request on.
    @Test func aCorrectedSurgeryDateEndsAnAlreadyUsedTokenAtOnce() throws {
        let config = try ConfigDirectory(server: #"{"tokens": {"patientDaysAfterMonitoring": 20}}"#)
        let d = try TestDaemon(configFile: config.serverFile)
        let token = try Study.enrollAndActivate(d, "LIFE-MOVE", surgeryDaysAgo: 6)
        for _ in 0..<2 { #expect(try d.request(.get, "/v1/me/today", token: token).status == 200) }
        let longAgo = Study.date(-40)
        let moved = try d.request(.patch, "/v1/patients/LIFE-MOVE", token: d.adminToken, body: ["surgeryDate": .string(longAgo)])
        #expect(moved.status == 200, "\(moved.text)")
        let refused = try d.request(.get, "/v1/me/today", token: token)
        #expect(refused.status == 401 && refused.errorCode == "expired_token", "\(refused.text)")
    }

    /// The token the CLI printed on its last line.
    static func printedToken(_ r: CLIRunner.Result) -> String {
        r.stdout.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    }

    @Test func aMemberRotatesTheirOwnTokenAndTheOldOneIsRefusedAtOnce() throws {
        let d = try TestDaemon()
        let old = try Study.staff(d, "n.rotate", role: "nurse")
        let rotated = try CLIRunner.run(["staff", "rotate", "n.rotate"], server: d.baseURL, token: old)
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(rotated.stdout.contains("shown once"))
        let new = Self.printedToken(rotated)
        #expect(new.hasPrefix("hts_") && new != old)
        #expect(try d.request(.get, "/v1/patients", token: new).status == 200)
        let refused = try d.request(.get, "/v1/patients", token: old)
        #expect(refused.status == 401 && refused.errorCode == "unauthenticated")
        // The audit trail records the rotation, never the token.
        let trail = try d.request(.get, "/v1/audit?subject=staff:n.rotate", token: d.adminToken).text
        #expect(trail.contains("staff.rotate") && trail.contains("\"actor\":\"staff:n.rotate\""), "\(trail)")
        #expect(!trail.contains(new) && !trail.contains(old))
    }

    @Test func onlyAnAdminRotatesAnotherMembersToken() throws {
        let d = try TestDaemon()
        let nurse = try Study.staff(d, "n.other", role: "nurse")
        let viewer = try Study.staff(d, "v.target", role: "viewer")
        let refused = try CLIRunner.run(["staff", "rotate", "v.target"], server: d.baseURL, token: nurse)
        #expect(refused.status == 77, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("forbidden"))
        let api = try d.request(.post, "/v1/staff/v.target/rotation", token: nurse, body: [:])
        #expect(api.status == 403 && api.errorCode == "forbidden")
        #expect(try d.request(.get, "/v1/patients", token: viewer).status == 200, "a refused rotation changes nothing")

        let byAdmin = try CLIRunner.run(["staff", "rotate", "v.target", "--json"], server: d.baseURL, token: d.adminToken)
        #expect(byAdmin.status == 0, "\(byAdmin.stderr)")
        guard case .object(let o) = try JSONParser.parse(byAdmin.stdout), case .string(let new)? = o["token"] else {
            Issue.record("no token in \(byAdmin.stdout)"); return
        }
        #expect(o["name"] == "v.target")
        #expect(try d.request(.get, "/v1/patients", token: viewer).status == 401, "the old token → 401 at once")
        #expect(try d.request(.get, "/v1/patients", token: new).status == 200)
        let unknown = try CLIRunner.run(["staff", "rotate", "nobody"], server: d.baseURL, token: d.adminToken)
        #expect(unknown.status == 1 && unknown.stderr.contains("not_found"), "\(unknown.stderr)")
    }
}
