import Foundation
import HTJSON
import Testing

/// The real `hyponatrack` against the real daemon with import files whose names and values
/// carry terminal control sequences (issue 33, finding 3): what the CLI prints, on stdout and
/// stderr, holds no byte a terminal acts on except LF, and still shows the text, escaped; a
/// crafted name cannot forge a line or hide the real rows. `--json` stays JSON.
@Suite struct CLIControlCharacterTests {
    /// Set the window title, return to the line's start, print a forged verdict, erase the line.
    static let forged = "\u{1b}]0;x\u{07}\r all values verified OK\u{1b}[2K"
    static let forgedEscaped = #"\u{1b}]0;x\u{7}\u{d} all values verified OK\u{1b}[2K"#

    /// The first byte a terminal would act on: C0 but LF, DEL, a C1 control (UTF-8 C2 80–9F),
    /// a bidi override or isolate (E2 80 AA–AE, E2 81 A6–A9).
    static func unsafeByte(_ text: String) -> String? {
        let b = Array(text.utf8)
        for i in b.indices {
            let next = i + 1 < b.count ? b[i + 1] : 0, third = i + 2 < b.count ? b[i + 2] : 0
            if (b[i] < 0x20 && b[i] != 0x0A) || b[i] == 0x7F || (b[i] == 0xC2 && (0x80...0x9F).contains(next))
                || (b[i] == 0xE2 && next == 0x80 && (0xAA...0xAE).contains(third))
                || (b[i] == 0xE2 && next == 0x81 && (0xA6...0xA9).contains(third)) {
                return "byte \(String(b[i], radix: 16)) at \(i) in \(text.debugDescription)"
            }
        }
        return nil
    }

    /// A daemon (with `patient` enrolled, if one is named), a nurse's token, and a directory for the files.
    struct Setup {
        let daemon: TestDaemon
        let nurse: String
        let dir: URL

        init(patient id: String? = nil) throws {
            daemon = try TestDaemon()
            if let id { _ = try Study.enrollAndActivate(daemon, id) }
            nurse = try Study.staff(daemon, "nurse.ctl", role: "nurse")
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-ctl-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }

        func run(_ args: [String]) throws -> CLIRunner.Result { try CLIRunner.run(args, server: daemon.baseURL, token: nurse) }

        func end() {
            daemon.stop()
            try? FileManager.default.removeItem(at: dir)
        }
    }

    @Test func aFHIRBundleWithControlCharactersInItsEntriesIsReportedEscaped() throws {
        let id = "CTL-FHIR-1"
        let s = try Setup(patient: id)
        defer { s.end() }
        let day = Study.date(-1)
        // A potassium result (refused: other code) under the crafted fullUrl, and a sodium one
        // whose status (quoted in the refusal's detail) carries C1, DEL, bidi and a line break.
        var status = ImportFlowTests.sodium("s1", id, date: day)
        if case .object(var o) = status { o["status"] = .string("\u{9b}2J\u{7f}\u{202e}\nall values verified OK"); status = .object(o) }
        let doc: JSONValue = ["resourceType": "Bundle", "type": "collection", "entry": [
            ["fullUrl": .string("urn:uuid:1" + Self.forged), "resource": ImportFlowTests.sodium("k1", id, date: day, code: "2823-3")],
            ["fullUrl": "urn:uuid:2", "resource": status],
        ]]
        let file = s.dir.appendingPathComponent("labs.json")
        try Data(JSONSerializer.bytes(doc)).write(to: file)

        let report = try s.run(["import", "fhir", file.path])
        #expect(report.status == 0, "\(report.stdout)\(report.stderr)")
        #expect(Self.unsafeByte(report.stdout + report.stderr) == nil)
        let lines = report.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("urn:uuid:1" + Self.forgedEscaped) && $0.contains("other_code") }, "\(report.stdout)")
        #expect(report.stdout.contains(#"\u{9b}2J\u{7f}\u{202e}\u{a}all values verified OK"#), "\(report.stdout)")
        // The summary, "Not proposed:", the header and exactly the two refused rows: no forged line.
        #expect(lines.count == 5 && !lines.contains { $0.hasPrefix("all values verified OK") }, "\(report.stdout)")

        // --json is the daemon's answer as JSON: C0 escaped by JSON itself, the names intact.
        let json = try s.run(["import", "fhir", file.path, "--json"])
        #expect(json.status == 0 && !json.stdout.utf8.contains { $0 < 0x20 && $0 != 0x0A }, "\(json.stdout.debugDescription)")
        guard case .object(let answer) = try JSONParser.parse(json.stdout), case .array(let refused)? = answer["refused"],
              case .object(let first)? = refused.first else { Issue.record("not an import answer: \(json.stdout)"); return }
        #expect(first["entry"] == .string("urn:uuid:1" + Self.forged))
    }

    @Test func anAppleHealthZipWithACraftedEntryNameIsReportedEscaped() throws {
        let id = "CTL-ZIP-1"
        let s = try Setup(patient: id)
        defer { s.end() }
        let xml = s.dir.appendingPathComponent("export.xml"), zip = s.dir.appendingPathComponent("export.zip")
        try Data(ImportFlowTests.export(Study.date(-2)).utf8).write(to: xml)
        // Python's zipfile (an independent writer) keeps the name's control characters as they are.
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                z.write(sys.argv[2], "apple_health_export/export.xml")
                z.writestr("apple_health_export/clinical-records/" + sys.argv[3] + ".json", "not JSON")
            """
        let zipped = try CLIRunner.run("/usr/bin/python3", ["-c", script, zip.path, xml.path, Self.forged])
        #expect(zipped.status == 0, "\(zipped.stderr)")

        let report = try s.run(["import", "apple-health", id, zip.path])
        #expect(report.status == 0, "\(report.stdout)\(report.stderr)")
        #expect(Self.unsafeByte(report.stdout + report.stderr) == nil)
        let lines = report.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix(Self.forgedEscaped + ".json") && $0.contains("not a FHIR resource in JSON") },
                "\(report.stdout)")
        #expect(report.stdout.contains("Proposed 2 values") && lines.count == 4, "\(report.stdout)")
    }

    @Test func aRefusalMessageQuotingTheFileIsPrintedEscaped() throws {
        let s = try Setup()
        defer { s.end() }
        let file = s.dir.appendingPathComponent("labs.json")
        // The daemon's 400 quotes the resourceType it did not expect.
        try Data(JSONSerializer.bytes(["resourceType": "\u{1b}[2J\rBundle\u{9b}0m"])).write(to: file)

        let refused = try s.run(["import", "fhir", file.path])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(Self.unsafeByte(refused.stdout + refused.stderr) == nil)
        #expect(refused.stderr.contains(#"\u{1b}[2J\u{d}Bundle\u{9b}0m"#), "\(refused.stderr)")
    }
}
