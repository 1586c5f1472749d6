import Foundation
import HTJSON
import Testing

/// Import uploads past the 64 KiB body cap are spooled to `DATA_DIR/spool/` up to
/// `imports.maxUploadBytes` and removed afterwards; callers who may not import are answered
/// before the body is stored; every other route keeps its cap.
@Suite struct ImportUploadTests {
    /// An export of `records` step records, all years before the monitoring window.
    static func largeExport(records: Int) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        for i in 0..<records {
            text += " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" "
                + "startDate=\"2019-01-01 07:\(i % 6)0:00 +0100\" endDate=\"2019-01-01 07:59:00 +0100\" value=\"\(i)\"/>\n"
        }
        return Array((text + "</HealthData>\n").utf8)
    }

    @Test func largeUploadIsSpooledAndRemovedAndTheLimitHolds() throws {
        let config = try ConfigDirectory(server: #"{"imports": {"maxUploadBytes": 400000}}"#)
        let d = try TestDaemon(configFile: config.serverFile)
        defer { d.stop() }
        let patient = try Study.enrollAndActivate(d, "UPL-1")
        let nurse = try Study.staff(d, "nurse.upl", role: "nurse")
        let path = "/v1/patients/UPL-1/imports/apple-health"
        let body = Self.largeExport(records: 2_000)
        #expect(body.count > 200_000 && body.count < 400_000)
        let ok = try d.request(.post, path, token: nurse, raw: body, contentType: "application/xml")
        #expect(ok.status == 200 && ok["skippedOutsideWindow"] == 2000, "\(ok.text)")
        let spool = d.dataDir.appendingPathComponent("spool")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: spool.path)) ?? []).isEmpty)

        let tooLarge = try d.request(.post, path, token: nurse, raw: Self.largeExport(records: 4_000), contentType: "application/xml")
        #expect(tooLarge.status == 413, "\(tooLarge.status) \(tooLarge.text)")
        #expect(try d.request(.post, path, raw: body, contentType: "application/xml").status == 401)
        #expect(try d.request(.post, path, token: patient, raw: body, contentType: "application/xml").status == 403)
        // Other routes keep the 64 KiB cap.
        let day = try d.request(.put, "/v1/me/days/\(Study.date(-1))", token: patient,
                                raw: Array(("{\"steps\": 1" + String(repeating: " ", count: 70_000) + "}").utf8))
        #expect(day.status == 413)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: spool.path)) ?? []).isEmpty)
    }
}
