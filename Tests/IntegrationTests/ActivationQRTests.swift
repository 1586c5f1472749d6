import Foundation
import Testing
import HTJSON
import TestCommands

/// The activation QR (docs/product.md, third round, W "QR activation"), read back by a real
/// decoder: the console's code page draws the link as inline SVG (librsvg renders it, ZBar reads
/// it) on the page that is the patient's printable handout, and `--qr` prints it for a terminal.
@Suite struct ActivationQRTests {
    static let publicURL = "https://checkin.example.org"

    static func daemon() throws -> (TestDaemon, ConfigDirectory) {
        let config = try ConfigDirectory(server: #"{"app": {"publicURL": "\#(publicURL)/", "clinicPhone": "+49 30 555 0100"}}"#)
        let d = try TestDaemon(configFile: config.serverFile)
        _ = try Study.staff(d, "-ward", role: "nurse")
        try ConsoleClient.setPassword(d, "-ward", ConsoleTests.password)
        return (d, config)
    }

    @Test func theCodePageDrawsTheActivationLinkAsAQRCodeThatDecodesToItAndActivates() throws {
        let (d, _) = try Self.daemon()
        let c = ConsoleClient(d)
        try c.signIn("-ward", ConsoleTests.password)
        _ = try c.get("/console/enrolment")
        let r = try c.post("/console/enrolment", ["studyId": "QR-1", "surgeryDate": Study.date(-2), "age": "61", "sex": "female",
                                                  "bmi": "24", "baselineWeightKg": "70"])
        #expect(r.status == 303, "\(r.text.suffix(1500))")
        let page = try c.get("/console/patients/QR-1/code").text
        guard let mark = page.range(of: "id=\"activation-code\">") else { throw TestFailure("no code: \(page.suffix(2000))") }
        let code = String(page[mark.upperBound...].prefix { $0 != "<" })
        let link = "\(Self.publicURL)/app/activate?study=QR-1&code=\(code)"
        let escaped = link.replacingOccurrences(of: "&", with: "&amp;")
        #expect(page.contains("id=\"activation-url\">\(escaped)<"), "the link in words under the code")
        #expect(page.contains("href=\"tel:+49305550100\">+49 30 555 0100</a>"), "the clinic's number on the handout")
        #expect(page.contains("or open \(Self.publicURL)/app/ in your phone"), "the public address, not the request's host")
        guard let start = page.range(of: "<svg"), let end = page.range(of: "</svg>", range: start.upperBound..<page.endIndex) else {
            throw TestFailure("no inline SVG on the code page")
        }
        #expect(try Self.decodedSVG(String(page[start.lowerBound..<end.upperBound])) == link)
        let activated = try d.request(.post, "/v1/activate", body: ["studyId": "QR-1", "code": .string(code)])
        #expect(activated.status == 200, "the scanned code activates: \(activated.text)")
    }

    @Test func reissueWithQRPrintsATerminalCodeOfTheLinkAndWithoutAPublicURLSaysSo() throws {
        let (d, _) = try Self.daemon()
        _ = try d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("QR-2"))
        let cli = try CLIRunner.run(["reissue", "QR-2", "--qr"], server: d.baseURL, token: d.adminToken)
        #expect(cli.status == 0, "\(cli.stderr)")
        guard let line = cli.stdout.split(separator: "\n").first(where: { $0.hasPrefix("Activation link: ") }) else {
            throw TestFailure("no link: \(cli.stdout)")
        }
        let link = String(line.dropFirst("Activation link: ".count))
        let art = cli.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.isEmpty && $0.unicodeScalars.allSatisfy { " ▀▄█".unicodeScalars.contains($0) } }
        #expect(art.count > 10, "\(cli.stdout)")
        #expect(try Self.decodedTerminal(art.map(String.init)) == link)

        let plain = try TestDaemon()
        _ = try plain.request(.post, "/v1/patients", token: plain.adminToken, body: Study.profile("QR-3"))
        let none = try CLIRunner.run(["reissue", "QR-3", "--qr"], server: plain.baseURL, token: plain.adminToken)
        #expect(none.status == 0 && none.stderr.contains("app.publicURL") && !none.stdout.contains("█"), "\(none.stderr)")
    }

    /// ZBar's reading of an SVG as librsvg draws it.
    static func decodedSVG(_ svg: String) throws -> String {
        let scratch = try Scratch(prefix: "ActivationQRTests")
        defer { scratch.remove() }
        try scratch.write(Array(svg.utf8), to: "code.svg")
        let rendered = try Command.run(["rsvg-convert", "--output", scratch.path("code.png"), scratch.path("code.svg")])
        try #require(rendered.status == 0, "rsvg-convert: \(rendered.stderr)")
        return try zbar(scratch.path("code.png"))
    }

    /// ZBar's reading of half-block text as a light-on-dark terminal shows it: a painted half is
    /// light, an empty one dark (a plain PBM, each cell 4 × 4 pixels).
    static func decodedTerminal(_ lines: [String]) throws -> String {
        var rows: [[Bool]] = []   // true = dark
        for line in lines {
            var upper: [Bool] = [], lower: [Bool] = []
            for ch in line.unicodeScalars {
                upper.append(!(ch == "▀" || ch == "█"))
                lower.append(!(ch == "▄" || ch == "█"))
            }
            rows += [upper, lower]
        }
        let width = rows.map(\.count).max() ?? 0, scale = 4
        var pbm = "P1\n\(width * scale) \(rows.count * scale)\n"
        for row in rows {
            let pixels = (0..<width).map { $0 < row.count && row[$0] ? "1" : "0" }.flatMap { Array(repeating: $0, count: scale) }
            let text = pixels.joined(separator: " ") + "\n"
            pbm += String(repeating: text, count: scale)
        }
        let scratch = try Scratch(prefix: "ActivationQRTests")
        defer { scratch.remove() }
        try scratch.write(Array(pbm.utf8), to: "code.pbm")
        return try zbar(scratch.path("code.pbm"))
    }

    static func zbar(_ path: String) throws -> String {
        let result = try Command.run(["zbarimg", "--raw", "--quiet", path])
        try #require(result.status == 0, "zbarimg found no code: \(result.stderr)")
        return String(result.stdout.dropLast(result.stdout.hasSuffix("\n") ? 1 : 0))
    }
}
