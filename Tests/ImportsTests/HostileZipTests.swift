import Foundation
import HyponaTrackCore
import Imports
import Testing
import Zip

/// Every value a zip holds is the sender's: crafted sizes, offsets and extra fields are
/// refused as damage (ImportFileError, a 400 naming `file`), never trapped on, and an entry
/// cannot inflate to more than it declares.
@Suite struct HostileZipTests {
    static let exportName = "apple_health_export/export.xml"
    static let export = SyntheticExport.document([
        SyntheticExport.record("HKQuantityTypeIdentifierStepCount", "2026-11-20 07:00:00 +0100", value: "1000", unit: "count"),
    ])

    func read(_ bytes: [UInt8]) throws -> HealthSummary {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        return try AppleHealthExport.read(path: try CraftedZip.write(bytes, in: dir), studyId: "HT-001",
                                          zone: HealthReducerTests.zone, window: HealthReducerTests.window)
    }

    func refusal(_ bytes: [UInt8]) -> String? {
        do { _ = try read(bytes); return nil } catch let error as ImportFileError { return error.message } catch { return "\(error)" }
    }

    @Test func craftedExportStillReads() throws {
        #expect(try read(CraftedZip.bytes([CraftedZip.stored(Self.exportName, Self.export)])).days.map(\.steps) == [1000])
    }

    @Test func zip64DirectoryWhoseEndOverflowsIsRefused() {
        let bytes = CraftedZip.bytes([CraftedZip.stored(Self.exportName, Self.export)]) { offset, size, _ in
            CraftedZip.zip64Tail(directoryOffset: 0xFFFF_FFFF_FFFF_FFF0, directorySize: 0x20, count: 1, recordAt: offset + size)
        }
        #expect(refusal(bytes)?.contains("central directory is missing") == true)
    }

    @Test func zip64LocatorPastAnyFileIsRefused() {
        let bytes = CraftedZip.bytes([CraftedZip.stored(Self.exportName, Self.export)]) { offset, size, count in
            CraftedZip.zip64Tail(directoryOffset: UInt64(offset), directorySize: UInt64(size), count: UInt64(count),
                                 recordAt: offset + size, locatorPointsAt: 0xFFFF_FFFF_FFFF_FF00)
        }
        #expect(refusal(bytes)?.contains("zip64 end of central directory lies outside the file") == true)
    }

    @Test func zip64ExtraFieldClaimingMoreThanItHoldsIsNotReadPastTheDirectory() throws {
        // The extra field is the directory's last bytes: it claims 8 bytes of value and holds 4.
        var member = CraftedZip.stored(Self.exportName, Self.export)
        member.uncompressedSize = 0xFFFF_FFFF
        member.extra = CraftedZip.zip64Extra(claiming: 8, []) + [1, 2, 3, 4]
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let archive = try ZipArchive(path: try CraftedZip.write(CraftedZip.bytes([member]), in: dir))
        #expect(archive.entries.map(\.uncompressedSize) == [0xFFFF_FFFF])
        // The 32-bit size stands, and is refused as no export's (4 GiB from a few hundred bytes).
        #expect(refusal(CraftedZip.bytes([member]))?.contains("declares 4294967295 bytes") == true)
    }

    @Test func zip64CompressedSizeOfAllOnesIsRefusedAsDataPastTheEnd() {
        var member = CraftedZip.stored(Self.exportName, Self.export)
        member.compressedSize = 0xFFFF_FFFF
        member.extra = CraftedZip.zip64Extra(claiming: 8, [UInt64.max])
        #expect(refusal(CraftedZip.bytes([member]))?.contains("would end past the end of the file") == true)
    }

    @Test func inflatingStopsAtTheDeclaredSize() throws {
        let member = try CraftedZip.lyingSpaces(Self.exportName, count: 20 << 20, declared: 1000)
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let archive = try ZipArchive(path: try CraftedZip.write(CraftedZip.bytes([member]), in: dir))
        let stream = try archive.open(try #require(archive.entries.first))
        var delivered = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let error = #expect(throws: ZipError.self) {
            while true {
                let n = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
                if n == 0 { break }
                delivered += n
            }
        }
        #expect(delivered <= 1000)
        #expect(error?.message.contains("more than the 1000 bytes its header declares") == true)
    }

    @Test func clinicalRecordInflatingPastItsDeclaredSizeRefusesTheImport() throws {
        let bomb = try CraftedZip.lyingSpaces("apple_health_export/clinical-records/Observation-1.json", count: 20 << 20, declared: 1000)
        let message = refusal(CraftedZip.bytes([CraftedZip.stored(Self.exportName, Self.export), bomb]))
        #expect(message?.contains("Observation-1.json") == true)
        #expect(message?.contains("more than the 1000 bytes") == true)
    }

    @Test func entryDeclaringMoreThanDeflateCanHonestlyGiveIsRefusedUninflated() throws {
        // Honest about its size (20 MiB of spaces in about 20 KB), so only the ratio gives it away.
        let bomb = try CraftedZip.lyingSpaces(Self.exportName, count: 20 << 20, declared: 20 << 20)
        let message = refusal(CraftedZip.bytes([bomb]))
        #expect(message?.contains("more than 200 times its compressed size") == true, "\(message ?? "read")")
    }
}
