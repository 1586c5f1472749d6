import Foundation
import Testing
import HTJSON

/// A rule file that renames or drops a code stored patients carry would have the risk model
/// score it 0 points, silently: the daemon refuses such rules at start, on reload and in
/// `--check-config`, naming the key, the code and the active patients; codes only withdrawn
/// patients carry are reported and the rules taken.
@Suite struct StoredProfileCodeTests {
    static func riskScore(_ d: TestDaemon, _ studyId: String) throws -> JSONValue? {
        try d.request(.get, "/v1/patients/\(studyId)", token: d.adminToken)["riskScore"]
    }

    /// Replaces `old` in `risk-model.json` of `dir`.
    static func edit(_ dir: ConfigDirectory, _ old: String, _ new: String) throws {
        let url = dir.file("risk-model.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(old), "fixture text not found: \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func rulesWithoutACodeAnActivePatientCarriesAreRefusedNamingKeyCodeAndPatient() throws {
        let dir = try ConfigDirectory()
        let d = try TestDaemon(configFile: dir.serverFile)
        _ = try Study.enrollAndActivate(d, "CODE-ACTIVE", [("histology", "cushing")])
        _ = try Study.enrollAndActivate(d, "CODE-GONE", [("riskMedications", ["thiazide"])])
        let withdrawn = try d.request(.post, "/v1/patients/CODE-GONE/withdrawal", token: d.adminToken, body: ["reason": "moved away"])
        #expect(withdrawn.status == 200, "\(withdrawn.text)")
        let score = try Self.riskScore(d, "CODE-ACTIVE")
        #expect(score == 2, "cushing 2, nothing else: \(String(describing: score))")
        d.stop()

        try Self.edit(dir, "\"cushing\": 2", "\"cushing_disease\": 2")
        try Self.edit(dir, "\"thiazide\": 2", "\"thiazide_diuretic\": 2")
        var failure = ""
        do { try d.start() } catch { failure = "\(error)" }
        #expect(d.exitStatus.map { $0 != 0 } == true, "the start is refused: \(failure)")
        let named = "\(dir.file("risk-model.json").path): katA.histology: has no \"cushing\", which active patients carry: CODE-ACTIVE"
        // The log quotes the message logfmt-style.
        #expect(failure.contains(named.replacingOccurrences(of: "\"", with: "\\\"")), "\(failure)")
        #expect(!failure.contains("thiazide"), "a code only a withdrawn patient carries does not stop the start: \(failure)")
        let check = try CLIRunner.run(Repo.daemon, ["--check-config", "--config", dir.serverFile.path, "--data-dir", d.dataDir.path])
        #expect(check.status == 78 && check.stderr.contains(named), "the check says the same: \(check.stderr)")

        // The histology put back: it starts, scores as before, and says who carries the other code.
        try Self.edit(dir, "\"cushing_disease\": 2", "\"cushing\": 2")
        try d.start()
        #expect(try Self.riskScore(d, "CODE-ACTIVE") == score)
        try waitUntil { d.log.contains("withdrawn or finished patients carry a code the rules do not know") }
        #expect(d.log.contains("code=thiazide file=risk-model.json key=katA.riskMedications.points study_ids=CODE-GONE"), "\(d.log)")

        // A reload that drops it again is refused and the rules in force stay.
        try Self.edit(dir, "\"cushing\": 2", "\"cushing_disease\": 2")
        d.signal(SIGHUP)
        try waitUntil { d.log.contains("rules reload refused") }
        let refusal = d.log.split(separator: "\n").first { $0.contains("rules reload refused") } ?? ""
        #expect(refusal.contains("has no \\\"cushing\\\", which active patients carry: CODE-ACTIVE"), "\(refusal)")
        #expect(try Self.riskScore(d, "CODE-ACTIVE") == score)
    }
}
