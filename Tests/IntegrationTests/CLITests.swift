import Foundation
import Testing
import HTJSON

/// The real `hyponatrack` binary against the real daemon.
/// The enrolments here pass `--time-zone`: without it the CLI sends no `timeZone`, which only a
/// daemon that defaults it to `defaultTimeZone` accepts (issue 10, server part).
@Suite struct CLITests {
    @Test func aNurseEnrollsUpdatesAndSeesThePatient() throws {
        let d = try TestDaemon()
        let nurse = try Study.staff(d, "nurse.n", role: "nurse")
        let enroll = try CLIRunner.run(["enroll", "--study-id", "CLI-1", "--surgery-date", Study.date(-5), "--age", "64",
                                        "--sex", "female", "--bmi", "23", "--baseline-weight", "70", "--histology", "cushing",
                                        "--time-zone", "Europe/Berlin", "--risk-med", "thiazide", "--fluid-limit", "1500"], server: d.baseURL, token: nurse)
        #expect(enroll.status == 0, "\(enroll.stderr)")
        #expect(enroll.stdout.contains("risk high (score 7"))
        #expect(enroll.stdout.contains("Kat B pending"))
        #expect(enroll.stdout.contains("Activation code: "))
        let update = try CLIRunner.run(["update", "CLI-1", "--pod-sodium", "134", "--csf-leak", "yes"], server: d.baseURL, token: nurse)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.contains("Kat B pending: no"))
        let list = try CLIRunner.run(["patients", "--json"], server: d.baseURL, token: nurse)
        #expect(list.status == 0)
        guard case .array(let items) = try JSONParser.parse(list.stdout), case .object(let p)? = items.first else {
            Issue.record("not a list: \(list.stdout)"); return
        }
        #expect(p["studyId"] == "CLI-1" && p["riskScore"] == 11)
        let lab = try CLIRunner.run(["lab", "CLI-1", "--sodium", "129"], server: d.baseURL, token: nurse)
        #expect(lab.stdout.contains("RED"), "\(lab.stdout)\(lab.stderr)")
        let show = try CLIRunner.run(["show", "CLI-1"], server: d.baseURL, token: nurse)
        #expect(show.status == 0 && show.stdout.contains("129#"))
    }

    @Test func exitCodesFollowTheContract() throws {
        let d = try TestDaemon()
        let viewer = try Study.staff(d, "viewer.x", role: "viewer")
        let args = ["enroll", "--study-id", "CLI-2", "--surgery-date", Study.date(-5), "--age", "50", "--sex", "male",
                    "--bmi", "27", "--baseline-weight", "80", "--time-zone", "Europe/Berlin"]
        #expect(try CLIRunner.run(args, server: d.baseURL, token: viewer).status == 77)          // role refused
        #expect(try CLIRunner.run(args, server: d.baseURL, token: "hts_wrong").status == 77)     // unauthenticated
        #expect(try CLIRunner.run(args, server: "http://127.0.0.1:1", token: d.adminToken).status == 69)
        #expect(try CLIRunner.run(args + ["--bogus"], server: d.baseURL, token: d.adminToken).status == 64)
        #expect(try CLIRunner.run(["enroll", "--age", "abc"], server: d.baseURL, token: d.adminToken).status == 64)
        let ok = try CLIRunner.run(args, server: d.baseURL, token: d.adminToken)
        #expect(ok.status == 0)
        let again = try CLIRunner.run(args, server: d.baseURL, token: d.adminToken)
        #expect(again.status == 1)
        #expect(again.stderr.contains("studyId: study ID already in use: CLI-2"))
        let young = try CLIRunner.run(["enroll", "--study-id", "CLI-3", "--surgery-date", Study.date(-5), "--age", "12",
                                       "--sex", "male", "--bmi", "27", "--baseline-weight", "80", "--time-zone", "Europe/Berlin"],
                                      server: d.baseURL, token: d.adminToken)
        #expect(young.status == 1 && young.stderr.contains("age: 12 is outside 18–110"))
    }

    @Test func everyCommandHasHelp() throws {
        for command in ["enroll", "update", "reissue", "lab", "item", "patients", "show", "staff", "audit", "evaluate"] {
            let r = try CLIRunner.run([command, "--help"], server: "http://127.0.0.1:1", token: nil)
            #expect(r.status == 0, "\(command)")
            #expect(r.stdout.contains("Usage: hyponatrack \(command)"), "\(command)")
        }
    }

    @Test func staffManagementAndRevocation() throws {
        let d = try TestDaemon()
        let add = try CLIRunner.run(["staff", "add", "nurse.b", "--role", "nurse"], server: d.baseURL, token: d.adminToken)
        #expect(add.status == 0)
        let token = add.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(token.hasPrefix("hts_"))
        #expect(try CLIRunner.run(["patients"], server: d.baseURL, token: token).status == 0)
        #expect(try CLIRunner.run(["staff", "list"], server: d.baseURL, token: token).status == 77)   // nurses cannot
        #expect(try CLIRunner.run(["staff", "revoke", "nurse.b"], server: d.baseURL, token: d.adminToken).status == 0)
        #expect(try CLIRunner.run(["patients"], server: d.baseURL, token: token).status == 77)
        #expect(!d.log.contains(token), "a token reached the log")
        #expect(!d.log.contains(d.adminToken), "the admin token reached the log")
    }
}
