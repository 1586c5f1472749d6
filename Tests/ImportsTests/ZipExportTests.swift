import Foundation
import HTJSON
import HyponaTrackCore
import Imports
import Testing
import Zip

/// Zip archives written by Python's zipfile (an independent writer), read by the Zip target.
enum ZipFixture {
    /// Writes `files` (name → text) to a zip at `path`; `stored` skips compression.
    static func write(_ path: String, _ files: [(String, String)], stored: Bool = false) throws {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent()
        var members: [String] = []
        for (i, (name, text)) in files.enumerated() {
            let file = dir.appendingPathComponent("member-\(i)")
            try Data(text.utf8).write(to: file)
            members.append("(\(pythonString(name)), \(pythonString(file.path)))")
        }
        let script = """
            import zipfile
            with zipfile.ZipFile(\(pythonString(path)), 'w', zipfile.\(stored ? "ZIP_STORED" : "ZIP_DEFLATED")) as z:
                for name, src in [\(members.joined(separator: ", "))]:
                    z.write(src, name)
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw ZipError("python3 could not write the zip") }
    }

    static func pythonString(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "\\'") + "'" }
}

@Suite struct ZipExportTests {
    static let zone = HealthReducerTests.zone
    static let window = HealthReducerTests.window

    static var clinicalRecord: String {
        JSONSerializer.string(SyntheticFHIR.sodium(id: "cr1", value: 128, subject: ["reference": "Patient/whoever"]))
    }

    @Test func exportZipIsStreamedWithItsClinicalRecords() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for stored in [false, true] {
            let path = dir.appendingPathComponent("export-\(stored).zip").path
            try ZipFixture.write(path, [("apple_health_export/export.xml", HealthReducerTests.traps),
                                        ("apple_health_export/export_cda.xml", "<ClinicalDocument/>"),
                                        ("apple_health_export/clinical-records/Observation-1.json", Self.clinicalRecord),
                                        ("apple_health_export/clinical-records/Condition-2.json", "{\"resourceType\": \"Condition\"}")],
                                 stored: stored)
            let summary = try AppleHealthExport.read(path: path, studyId: "HT-001", zone: Self.zone, window: Self.window)
            #expect(summary.days == HealthReducerTests.expected)
            #expect(summary.labs.map(\.value) == [128])
            #expect(summary.labs.map(\.studyId) == ["HT-001"])
            #expect(summary.refused.map(\.entry) == ["Condition-2.json"])
        }
    }

    @Test func truncatedZipIsRefusedWhole() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("export.zip").path
        try ZipFixture.write(path, [("apple_health_export/export.xml", HealthReducerTests.traps)])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for cut in [bytes.count / 2, bytes.count - 10] {
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
            #expect {
                _ = try AppleHealthExport.read(path: path, studyId: "HT-001", zone: Self.zone, window: Self.window)
            } throws: { "\($0)".contains("truncated") }
        }
    }

    @Test func plainExportXMLIsReadToo() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("export.xml").path
        try Data(HealthReducerTests.traps.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try AppleHealthExport.read(path: path, studyId: "HT-001", zone: Self.zone, window: Self.window).days
            == HealthReducerTests.expected)
    }

    @Test func damagedEntryIsRefusedByItsCRC() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("export.zip").path
        try ZipFixture.write(path, [("apple_health_export/export.xml", HealthReducerTests.traps)], stored: true)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[400] ^= 0x20   // inside export.xml's stored data
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImportFileError.self) {
            try AppleHealthExport.read(path: path, studyId: "HT-001", zone: Self.zone, window: Self.window)
        }
    }
}
