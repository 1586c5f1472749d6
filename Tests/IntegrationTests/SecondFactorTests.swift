import Foundation
import Testing
import HTJSON

/// The TOTP second factor (docs/product.md, third round, T) against the real daemon, with pyotp
/// (scripts/totp-peer) as the authenticator app: set up and confirmed over the CLI, signed in
/// through the console's form, replays and stale codes refused, recovery codes single use,
/// five wrong codes lock the name, the secret unreadable in the database file, an admin reset.
@Suite(.serialized) struct SecondFactorTests {
    static let password = "correct horse battery"

    /// pyotp's code for `uri` at now + `steps` time steps.
    static func code(_ uri: String, steps: Int = 0) throws -> String {
        let r = try CLIRunner.run(Repo.root.appendingPathComponent("scripts/totp-peer").path, ["code", uri, String(steps)])
        guard r.status == 0 else { throw TestFailure("totp-peer: \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The password step: the code form with its ticket (no session yet).
    static func passwordStep(_ c: ConsoleClient, _ name: String) throws -> String {
        let r = try c.postSignIn("/console/login", ["name": name, "password": password])
        #expect(r.status == 200, "\(r.status) \(r.text.prefix(300))")
        #expect(!r.headers.values(for: "set-cookie").contains { $0.hasPrefix("ht_session=") })
        guard let start = r.text.range(of: "name=\"ticket\" value=\""),
              let end = r.text[start.upperBound...].firstIndex(of: "\"") else { throw TestFailure("no code step: \(r.text.prefix(600))") }
        #expect(r.text.contains("name=\"code\""))
        return String(r.text[start.upperBound..<end])
    }

    static func codeStep(_ c: ConsoleClient, _ name: String, ticket: String, code: String) throws -> TestDaemon.Response {
        try c.post("/console/login", ["name": name, "ticket": ticket, "code": code])
    }

    static func signedIn(_ r: TestDaemon.Response) -> Bool {
        r.status == 303 && r.headers.values(for: "set-cookie").contains { $0.hasPrefix("ht_session=") && !$0.contains("Max-Age=0") }
    }

    @Test func aMemberSetsUpTOTPOverTheCLIAndSignsInWithPyotpCodesEachOnceRecoveryCodesOnceAndFiveWrongCodesLock() throws {
        let d = try TestDaemon()
        let token = try Study.staff(d, "mfa.nina", role: "nurse")
        _ = try Study.staff(d, "mfa.other", role: "nurse")
        try ConsoleClient.setPassword(d, "mfa.nina", Self.password)
        func cli(_ args: [String], token: String) throws -> CLIRunner.Result { try CLIRunner.run(args, server: d.baseURL, token: token) }

        // Another nurse may not set up nina's factor.
        #expect(try cli(["staff", "mfa", "mfa.other"], token: token).status == 77)
        let setUp = try cli(["staff", "mfa", "mfa.nina", "--json"], token: token)
        #expect(setUp.status == 0, "\(setUp.stderr)")
        let json = try JSONParser.parse(Array(setUp.stdout.utf8))
        guard case .object(let o) = json, case .string(let uri)? = o["otpauthURI"], case .array(let codeValues)? = o["recoveryCodes"] else {
            throw TestFailure("staff mfa --json: \(setUp.stdout)")
        }
        #expect(o.count == 2)
        let recovery = codeValues.compactMap { if case .string(let s) = $0 { s } else { nil } }
        #expect(recovery.count == 10 && Set(recovery).count == 10)
        #expect(uri.hasPrefix("otpauth://totp/HyponaTrack:mfa.nina?secret="))

        // Not active before it is confirmed: the password alone still signs in.
        try ConsoleClient(d).signIn("mfa.nina", Self.password)
        let wrongConfirm = try cli(["staff", "mfa", "mfa.nina", "--confirm", "000000"], token: token)
        #expect(wrongConfirm.status != 0)
        let first = try Self.code(uri)
        #expect(try cli(["staff", "mfa", "mfa.nina", "--confirm", first], token: token).status == 0)
        // An admin cannot replace an active factor.
        let replace = try d.request(.post, "/v1/staff/mfa.nina/mfa", token: d.adminToken)
        #expect(replace.status == 409)

        let c = ConsoleClient(d)
        var ticket = try Self.passwordStep(c, "mfa.nina")
        // The code that confirmed the factor is used; a code two steps old is refused.
        #expect(try Self.codeStep(c, "mfa.nina", ticket: ticket, code: first).status == 401)
        #expect(try Self.codeStep(c, "mfa.nina", ticket: ticket, code: try Self.code(uri, steps: -2)).status == 401)
        let next = try Self.code(uri, steps: 1)
        #expect(Self.signedIn(try Self.codeStep(c, "mfa.nina", ticket: ticket, code: next)))
        // The same code again is refused; a recovery code works once.
        let again = ConsoleClient(d)
        ticket = try Self.passwordStep(again, "mfa.nina")
        let replayed = try Self.codeStep(again, "mfa.nina", ticket: ticket, code: next)
        #expect(replayed.status == 401 && replayed.text.contains("used already"))
        #expect(Self.signedIn(try Self.codeStep(again, "mfa.nina", ticket: ticket, code: recovery[0].uppercased())))
        let third = ConsoleClient(d)
        ticket = try Self.passwordStep(third, "mfa.nina")
        #expect(try Self.codeStep(third, "mfa.nina", ticket: ticket, code: recovery[0]).status == 401)
        #expect(Self.signedIn(try Self.codeStep(third, "mfa.nina", ticket: ticket, code: recovery[1])))

        // Five wrong codes lock the name: the fifth is answered 429, and so is the password after.
        let valid = try Set((-1...1).map { try Self.code(uri, steps: $0) })
        let wrong = ["000000", "111111", "222222"].first { !valid.contains($0) }!
        let locker = ConsoleClient(d)
        ticket = try Self.passwordStep(locker, "mfa.nina")
        for _ in 1...4 { #expect(try Self.codeStep(locker, "mfa.nina", ticket: ticket, code: wrong).status == 401) }
        #expect(try Self.codeStep(locker, "mfa.nina", ticket: ticket, code: wrong).status == 429)
        #expect(try ConsoleClient(d).postSignIn("/console/login", ["name": "mfa.nina", "password": Self.password]).status == 429)

        // Neither the secret nor a recovery code is in the database files.
        let secret = String(uri.split(separator: "secret=")[1].prefix { $0 != "&" })
        let all = try FileManager.default.contentsOfDirectory(atPath: d.dataDir.path)
        let files = all.filter { $0.contains(".sqlite") || $0.hasSuffix(".db") || $0.contains("-wal") }
        #expect(!files.isEmpty, "\(all)")
        for file in files {
            let bytes = try Data(contentsOf: d.dataDir.appendingPathComponent(file))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains(secret) && !text.contains(secret.lowercased()), "\(file)")
            #expect(!recovery.contains { text.contains($0) || text.contains($0.replacingOccurrences(of: "-", with: "")) }, "\(file)")
        }

        // An admin resets the factor (audited); the member may not reset it themself.
        #expect(try cli(["staff", "mfa", "mfa.nina", "--reset"], token: token).status == 77)
        #expect(try cli(["staff", "mfa", "mfa.nina", "--reset"], token: d.adminToken).status == 0)
        let audit = try d.request(.get, "/v1/audit?subject=staff:mfa.nina", token: d.adminToken)
        #expect(audit.text.contains("staff.mfa_set_up") && audit.text.contains("staff.mfa_confirm")
                && audit.text.contains("staff.mfa_reset") && audit.text.contains("console.recovery_code"), "\(audit.text.prefix(800))")
        #expect(!audit.text.contains(secret) && !audit.text.contains(recovery[2]))
        #expect(!d.log.contains(secret) && !d.log.contains(recovery[0]) && !d.log.contains(next))
    }

    /// `console.requireMFA`: a member signed in with a password and no factor is sent to "Set up
    /// sign-in codes" before anything else; the page shows the QR as inline SVG, the key and the
    /// recovery codes once, and a first code from pyotp activates the factor. The key comes from
    /// `console.mfaKeyFile`.
    @Test func requireMFASendsAMemberWithoutAFactorToTheSetUpPageWhoseFirstCodeActivatesIt() throws {
        let dir = try ConfigDirectory(server: """
            {"console": {"requireMFA": true, "mfaKeyFile": "mfa-key"},
             "rules": {"riskModel": "risk-model.json", "thresholds": "thresholds.json",
                       "reminders": "reminders.json", "instructions": "instructions.json"}}
            """)
        try dir.write(String(repeating: "ab", count: 32) + "\n", to: "mfa-key", mode: 0o600)
        let d = try TestDaemon(configFile: dir.serverFile)
        _ = try Study.staff(d, "mfa.eva", role: "nurse")
        try ConsoleClient.setPassword(d, "mfa.eva", Self.password)
        let c = ConsoleClient(d)
        let first = try c.postSignIn("/console/login", ["name": "mfa.eva", "password": Self.password])
        guard Self.signedIn(first), let set = first.headers["set-cookie"] else { throw TestFailure("sign-in: \(first.status) \(first.text.prefix(300))") }
        c.cookie = String(set.split(separator: ";")[0])
        for path in ["/console/", "/console/alerts", "/console/patients/NOPE"] {
            let r = try c.get(path)
            #expect(r.status == 303 && r.headers["location"] == "/console/mfa", "\(path): \(r.status)")
        }
        #expect(try c.get("/console/mfa").status == 200)
        let page = try c.post("/console/mfa", [:])
        #expect(page.status == 200 && page.text.contains("<svg") && !page.text.contains("data:"))
        guard let start = page.text.range(of: "id=\"mfa-secret\">"),
              let end = page.text[start.upperBound...].firstIndex(of: "<") else { throw TestFailure("no key: \(page.text.prefix(600))") }
        let secret = String(page.text[start.upperBound..<end])
        #expect(page.text.components(separatedBy: "<li><code>").count - 1 == 10)
        let done = try c.post("/console/mfa/confirmation", ["code": try Self.code("otpauth://totp/x?secret=\(secret)")])
        #expect(done.status == 303 && done.headers["location"] == "/console/")
        #expect(try c.get("/console/").status == 200)
        // From now on the password is followed by the code step.
        _ = try Self.passwordStep(ConsoleClient(d), "mfa.eva")
    }
}
