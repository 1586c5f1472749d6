import Foundation
import Synchronization
import Testing
import HTJSON
@testable import HyponaTrackCLI
import HyponaTrackKit

/// `hyponatrack evaluate` through the CLI entry point, with its printed output captured.
@Suite struct EvaluateCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let vignettes = root.appendingPathComponent("Tests/Fixtures/public-vignettes.json").path
    static let config = root.appendingPathComponent("config").path

    final class Captured: Sendable {
        let out = Mutex<[String]>([])
        let err = Mutex<[String]>([])
        var io: CLIOutput {
            CLIOutput(out: { s in self.out.withLock { $0.append(s) } }, error: { s in self.err.withLock { $0.append(s) } })
        }
        var stdout: String { out.withLock { $0.joined(separator: "\n") } }
        var stderr: String { err.withLock { $0.joined(separator: "\n") } }
    }

    func run(_ args: [String]) -> (Int32, Captured) {
        let c = Captured()
        return (CLI.run(args, io: c.io), c)
    }

    func temp(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("case-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func checkPassesOnThePublicVignettes() throws {
        let (code, c) = run(["evaluate", Self.vignettes, "--check", "--rules", Self.config])
        #expect(code == 0, "\(c.stderr)")
        guard case .array(let results) = try JSONParser.parse(c.stdout) else { Issue.record("not an array"); return }
        #expect(results.count == 16)
        guard case .object(let first) = results[0] else { return }
        #expect(first.keys == ["id", "level", "riskClass", "riskScore", "katA", "katB", "katC", "katBPending", "pod",
                               "criticalWindow", "factor", "reasons", "rulesVersion"])
    }

    @Test func aMismatchExitsOneAndPrintsEveryDifference() throws {
        let text = try String(contentsOfFile: Self.vignettes, encoding: .utf8)
            .replacingOccurrences(of: "\"level\": \"green\",\n   \"riskClass\": \"low\",\n   \"riskScore\": 1,",
                                  with: "\"level\": \"red\",\n   \"riskClass\": \"low\",\n   \"riskScore\": 2,")
        let (code, c) = run(["evaluate", try temp(text), "--check", "--rules", Self.config])
        #expect(code == 1)
        #expect(c.stderr.contains("PV01: level is green, expected red"))
        #expect(c.stderr.contains("PV01: riskScore is 1, expected 2"))
    }

    @Test func withoutCheckDifferencesDoNotFail() throws {
        let (code, _) = run(["evaluate", Self.vignettes, "--rules", Self.config])
        #expect(code == 0)
    }

    @Test func anInvalidCaseFileNamesTheFieldAndExitsNonZero() throws {
        let path = try temp(#"{"id": "x", "profile": {"studyId": "x"}, "evaluateDate": "2026-03-05"}"#)
        let (code, c) = run(["evaluate", path, "--rules", Self.config])
        #expect(code == 1)
        #expect(c.stderr.contains("profile.surgeryDate: is required"))
        #expect(c.stdout.isEmpty)
    }

    @Test func malformedJSONIsAClearError() throws {
        let (code, c) = run(["evaluate", try temp("[{]"), "--rules", Self.config])
        #expect(code == 1)
        #expect(c.stderr.contains("malformed JSON at byte"))
    }

    @Test func aMissingFileIsAnError() {
        let (code, c) = run(["evaluate", "/nonexistent.json", "--rules", Self.config])
        #expect(code == 1)
        #expect(c.stderr.contains("cannot read /nonexistent.json"))
    }

    @Test func invalidRulesDirectoryIsRefused() {
        let (code, c) = run(["evaluate", Self.vignettes, "--rules", "/nonexistent"])
        #expect(code == 1)
        #expect(c.stderr.contains("invalid rules"))
    }

    @Test func usageErrorsExitSixtyFour() {
        #expect(run(["evaluate"]).0 == 64)
        #expect(run(["evaluate", "a", "b"]).0 == 64)
        #expect(run(["evaluate", "a", "--bogus"]).0 == 64)
        #expect(run(["frobnicate"]).0 == 64)
        #expect(run([]).0 == 64)
    }

    @Test func helpSaysItIsNotAValidatedMedicalDevice() {
        let (code, c) = run(["evaluate", "--help"])
        #expect(code == 0)
        #expect(c.stdout.contains("not a validated medical device"))
    }
}
