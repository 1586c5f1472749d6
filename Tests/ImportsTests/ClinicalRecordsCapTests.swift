import Foundation
import HTJSON
@testable import Imports
import Testing

/// The cap on an export's clinical records in all (256 MiB; here lowered, so that passing it
/// takes a few kilobytes): the records past it are refused unread, the export itself is not.
@Suite struct ClinicalRecordsCapTests {
    static func record(_ n: Int) -> String {
        JSONSerializer.string(SyntheticFHIR.sodium(id: "cr\(n)", value: Double(125 + n), subject: ["reference": "Patient/whoever"]))
    }

    @Test func recordsPastTheTotalCapAreRefusedUnreadAndTheRestImported() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("export.zip").path
        let records = (1...4).map { ("apple_health_export/clinical-records/Observation-\($0).json", Self.record($0)) }
        try ZipFixture.write(path, [("apple_health_export/export.xml", HealthReducerTests.traps)] + records)
        let size = UInt64(records[0].1.utf8.count)
        #expect(records.allSatisfy { UInt64($0.1.utf8.count) == size })
        // Room for two and a half: the third does not fit, nor does the fourth after it.
        let summary = try AppleHealthExport.readZip(path: path, studyId: "HT-001", zone: ZipExportTests.zone,
                                                     window: ZipExportTests.window, clinicalRecordsCap: size * 5 / 2)
        #expect(summary.days == HealthReducerTests.expected, "the export's days are imported")
        #expect(summary.labs.map(\.value) == [126, 127])
        #expect(summary.refused.map(\.entry) == ["Observation-3.json", "Observation-4.json"])
        #expect(summary.refused.allSatisfy { $0.detail == "not read: the clinical records pass \(size * 5 / 2) bytes in all" },
                "\(summary.refused.map(\.detail))")
    }

    @Test func theTotalCapIs256MiBAndSaysSo() {
        #expect(AppleHealthExport.maxClinicalRecordsBytes == 256 << 20)
        #expect(AppleHealthExport.ClinicalRecordsBudget(cap: AppleHealthExport.maxClinicalRecordsBytes).capText == "256 MiB")
    }
}
