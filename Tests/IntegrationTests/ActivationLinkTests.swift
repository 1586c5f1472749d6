import Foundation
import Testing
import HTJSON

/// The activation link (`app.publicURL`, docs/product.md W "QR activation") and a second
/// device's code (`reissue --add-device`), over the real daemon, HTTP and CLI.
@Suite struct ActivationLinkTests {
    static func publicDaemon() throws -> (TestDaemon, ConfigDirectory) {
        let config = try ConfigDirectory(server: #"{"app": {"publicURL": "https://checkin.example.org/"}}"#)
        return (try TestDaemon(configFile: config.serverFile), config)
    }

    @Test func enrolmentAndANewCodeReturnTheActivationURLAndTheSpecListsIt() throws {
        let (d, _) = try Self.publicDaemon()
        let e = try d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("LINK-1"))
        guard case .string(let code)? = e["activationCode"] else { throw TestFailure("\(e.text)") }
        #expect(e["activationURL"] == .string("https://checkin.example.org/app/activate?study=LINK-1&code=\(code)"), "\(e.text)")
        let r = try d.request(.post, "/v1/patients/LINK-1/activation", token: d.adminToken)
        guard case .string(let second)? = r["activationCode"] else { throw TestFailure("\(r.text)") }
        #expect(r["activationURL"] == .string("https://checkin.example.org/app/activate?study=LINK-1&code=\(second)"))
        let cli = try CLIRunner.run(["reissue", "LINK-1"], server: d.baseURL, token: d.adminToken)
        #expect(cli.status == 0 && cli.stdout.contains("Activation link: https://checkin.example.org/app/activate?study=LINK-1&code="), "\(cli.stdout)")
        let spec = try d.request(.get, "/openapi.json").text
        #expect(spec.contains("\"activationURL\""), "declared in the response shapes")
        // Without publicURL the member is null, never a made-up address.
        let plain = try TestDaemon()
        #expect(try plain.request(.post, "/v1/patients", token: plain.adminToken, body: Study.profile("LINK-0"))["activationURL"] == .null)
    }

    @Test func theLinkPrefillsTheFormWithoutUsingTheCodeAndTheAccessLogNeverShowsIt() throws {
        let (d, _) = try Self.publicDaemon()
        let e = try d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("LINK-2"))
        guard case .string(let code)? = e["activationCode"] else { throw TestFailure("\(e.text)") }
        // A link preview (or the patient opening the link twice) only reads the page.
        for _ in 1...2 {
            let page = try d.request(.get, "/app/activate?study=LINK-2&code=\(code)", contentType: nil)
            #expect(page.status == 200 && page.text.contains("value=\"LINK-2\"") && page.text.contains("value=\"\(code)\""))
        }
        #expect(try d.request(.get, "/v1/patients/LINK-2", token: d.adminToken)["activatedAt"] == .null, "not activated by a GET")
        let (c, _) = try PatientAppTests.activate(d, "LINK-2", code: code)
        #expect(try c.get("/app/").status == 200, "the patient's POST activates")
        let raw = code.replacingOccurrences(of: "-", with: "")
        #expect(poll(timeout: 5) { d.log.contains("/app/activate") }, "request lines are logged: \(d.log.suffix(500))")
        #expect(!d.log.contains(code) && !d.log.contains(raw), "the code never reaches the log")
    }

    @Test func aSecondDevicesCodeKeepsTheFirstTokenWorkingAndIsAudited() throws {
        let d = try TestDaemon()
        let first = try Study.enrollAndActivate(d, "LINK-3")
        let cli = try CLIRunner.run(["reissue", "LINK-3", "--add-device", "--json"], server: d.baseURL, token: d.adminToken)
        #expect(cli.status == 0, "\(cli.stderr)")
        let json = try JSONParser.parse(Array(cli.stdout.utf8))
        guard case .object(let o) = json, case .string(let code)? = o["activationCode"] else { throw TestFailure(cli.stdout) }
        let second = try d.request(.post, "/v1/activate", body: ["studyId": "LINK-3", "code": .string(code)])
        #expect(second.status == 200)
        #expect(try d.request(.get, "/v1/me/today", token: first).status == 200, "the first device keeps working")
        let trail = try d.request(.get, "/v1/audit?subject=LINK-3", token: d.adminToken).text
        #expect(trail.contains("activation.add_device"), "\(trail.prefix(800))")
        // A plain reissue still cuts every earlier token off.
        #expect(try CLIRunner.run(["reissue", "LINK-3"], server: d.baseURL, token: d.adminToken).status == 0)
        #expect(try d.request(.get, "/v1/me/today", token: first).status == 401)
    }

    @Test func aPublicURLThatWouldLeakTheCodeIsAStartUpErrorNamingTheKey() throws {
        for (bad, key) in [("http://checkin.example.org", "app.publicURL"), ("https://x.example/?a=b", "app.publicURL"),
                           ("Mo-Xx 08:00-16:00", "app.clinicHours")] {
            let field = key == "app.publicURL" ? "publicURL" : "clinicHours"
            let config = try ConfigDirectory(server: "{\"app\": {\"\(field)\": \"\(bad)\"}}")
            let r = try CLIRunner.run(Repo.daemon, ["--check-config", "--config", config.serverFile.path])
            #expect(r.status != 0 && r.stderr.contains(key), "\(bad): \(r.status) \(r.stderr)")
        }
    }
}
