import Foundation
import Testing
import HTJSON

/// Consent end to end with the real binaries: `hyponatrack enroll --consent-version
/// --consent-date` reaches the profile, the enrolment audit row and REDCap's `patient_baseline`
/// (over TLS, through the emulator); `consentRequired: true` refuses an enrolment without it.
@Suite struct ConsentFlowTests {
    static func enrollArgs(_ id: String, _ extra: [String] = []) -> [String] {
        ["enroll", "--study-id", id, "--surgery-date", Study.date(-6), "--age", "50", "--sex", "male", "--bmi", "27",
         "--baseline-weight", "80", "--time-zone", "Europe/Berlin"] + extra
    }

    static func object(_ v: JSONValue?) -> JSONObject? { if case .object(let o)? = v { o } else { nil } }

    @Test func consentReachesTheProfileTheAuditTrailAndTheREDCapBaselineRow() throws {
        let rig = try SyncRig()
        let id = "CONSENT-Sync-1"
        let signed = Study.date(-7)
        let enroll = try CLIRunner.run(Self.enrollArgs(id, ["--consent-version", "ICF-2.1_de", "--consent-date", signed,
                                                            "--risk-med", "antidepressant_recent"]),
                                       server: rig.daemon.baseURL, token: rig.admin)
        #expect(enroll.status == 0, "\(enroll.stderr)")
        let shown = try rig.daemon.request(.get, "/v1/patients/\(id)", token: rig.admin)
        let profile = try #require(Self.object(shown["profile"]))
        #expect(profile["consentVersion"] == "ICF-2.1_de" && profile["consentDate"] == .string(signed))
        let audit = try rig.daemon.request(.get, "/v1/audit?subject=\(id)", token: rig.admin)
        guard case .array(let entries) = audit.json, let enrolment = Self.object(entries.first),
              let audited = Self.object(Self.object(enrolment["details"])?["profile"]) else {
            Issue.record("no enrolment audit row: \(audit.text)"); return
        }
        #expect(enrolment["action"] == "patient.enroll")
        #expect(audited["consentVersion"] == "ICF-2.1_de" && audited["consentDate"] == .string(signed))
        try rig.waitUntilDrained()
        var baseline = try #require(try rig.emulator.records()[id]?.baseline)
        #expect(baseline["consent_version"] == "ICF-2.1_de" && baseline["consent_date"] == signed, "\(baseline)")
        // The renamed checkbox: the longest code's export column is 32 characters.
        #expect(baseline["risk_med___antidepressant_recent"] == "1" && baseline["risk_med___thiazide"] == "0")

        // A correction by `update` reaches REDCap and the audit trail as a before/after change.
        let corrected = Study.date(-6)
        let update = try CLIRunner.run(["update", id, "--consent-date", corrected, "--consent-version", "ICF-2.2"],
                                       server: rig.daemon.baseURL, token: rig.admin)
        #expect(update.status == 0, "\(update.stderr)")
        try rig.waitUntilDrained()
        baseline = try #require(try rig.emulator.records()[id]?.baseline)
        #expect(baseline["consent_version"] == "ICF-2.2" && baseline["consent_date"] == corrected)
        let trail = try rig.daemon.request(.get, "/v1/audit?subject=\(id)", token: rig.admin).text
        #expect(trail.contains(#""consentDate":{"before":"\#(signed)","after":"\#(corrected)"}"#), "\(trail)")
        #expect(try rig.reconcile()["inSync"] == true)
    }

    @Test func aStudyThatRequiresConsentRefusesAnEnrolmentWithoutIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("consentcfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["risk-model.json", "thresholds.json", "reminders.json", "instructions.json"] {
            try FileManager.default.copyItem(at: Repo.config.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        let file = dir.appendingPathComponent("hyponatrack.json")
        try #"{"defaultTimeZone": "Europe/Berlin", "consentRequired": true}"#.write(to: file, atomically: true, encoding: .utf8)
        let d = try TestDaemon(configFile: file)

        let refused = try CLIRunner.run(Self.enrollArgs("REQ-CLI-1"), server: d.baseURL, token: d.adminToken)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("consentVersion"), "\(refused.stderr)")
        let api = try d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("REQ-API-1"))
        #expect(api.status == 400)
        let error = Self.object(api["error"])
        #expect(error?["code"] == "invalid_value" && error?["field"] == "consentVersion", "\(api.text)")
        let badDate = try CLIRunner.run(Self.enrollArgs("REQ-CLI-1", ["--consent-version", "v1", "--consent-date", "2026-13-01"]),
                                        server: d.baseURL, token: d.adminToken)
        #expect(badDate.status == 1 && badDate.stderr.contains("consentDate"), "\(badDate.stderr)")
        let accepted = try CLIRunner.run(Self.enrollArgs("REQ-CLI-1", ["--consent-version", "v1", "--consent-date", Study.date(-6)]),
                                         server: d.baseURL, token: d.adminToken)
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }
}
