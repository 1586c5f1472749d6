import Foundation
import HTJSON
import Testing

/// Inputs that crashed the daemon: a Health value no integer holds (refused per record, as
/// out_of_range) and crafted zip64 headers (the file refused, 400 naming `file`). Nothing is
/// proposed, and the same daemon answers the next requests.
@Suite struct HostileImportTests {
    static func le(_ v: UInt64, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }

    /// A zip64 end of central directory record at byte 0 (the file starts `PK`), its locator
    /// pointing at `recordAt`, and an end record whose 32-bit fields are all ones.
    static func zip64(directoryOffset: UInt64, directorySize: UInt64, recordAt: UInt64) -> [UInt8] {
        le(0x0606_4b50, 4) + le(44, 8) + le(45, 2) + le(45, 2) + le(0, 8) + le(1, 8) + le(1, 8) + le(directorySize, 8) + le(directoryOffset, 8)
            + le(0x0706_4b50, 4) + le(0, 4) + le(recordAt, 8) + le(1, 4)
            + le(0x0605_4b50, 4) + le(0, 4) + le(0xFFFF, 2) + le(0xFFFF, 2) + le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(0, 2)
    }

    @Test func crashInputsAreRefusedAndTheDaemonServesTheNextRequest() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        let id = "HOSTILE-1"
        _ = try Study.enrollAndActivate(d, id)
        let nurse = try Study.staff(d, "nurse.hostile", role: "nurse")
        let path = "/v1/patients/\(id)/imports/apple-health"
        let day = Study.date(-2)
        let huge = ImportFlowTests.export(day).replacingOccurrences(of: "value=\"3300\"", with: "value=\"1e300\"")
            .replacingOccurrences(of: "value=\"150\"", with: "value=\"1e300\"")
        let values = try d.request(.post, path, token: nurse, raw: Array(huge.utf8), contentType: "application/xml")
        #expect(values.status == 200, "\(values.text)")
        #expect(ImportFlowTests.reasons(values) == ["out_of_range", "out_of_range"])
        #expect(values["refusedTotal"] == 2)
        // The 3000 steps of the other source are the only value left.
        #expect(ImportFlowTests.ids(values["proposed"]).count == 1)

        let zips = [Self.zip64(directoryOffset: 0xFFFF_FFFF_FFFF_FFF0, directorySize: 0x20, recordAt: 0),
                    Self.zip64(directoryOffset: 0, directorySize: 0, recordAt: 0xFFFF_FFFF_FFFF_FF00)]
        for zip in zips {
            let r = try d.request(.post, path, token: nurse, raw: zip, contentType: "application/zip")
            #expect(r.status == 400 && r.errorField == "file", "\(r.status) \(r.text)")
        }
        #expect(try ImportFlowTests.pending(d, nurse, id).count == 1)
        #expect(try d.request(.get, "/healthz").status == 200)
        let next = try d.request(.post, path, token: nurse, raw: Array(ImportFlowTests.export(day).utf8), contentType: "application/xml")
        #expect(next.status == 200 && next["refusedTotal"] == 0, "\(next.text)")
        #expect(d.exitStatus == nil)
    }
}
