import Foundation
import Testing
import TestCommands
import QRCode

/// QR codes read back by a real decoder: the SVG as librsvg renders it (`rsvg-convert`, the
/// way a browser rasterises the console's inline SVG) and the terminal half blocks turned back
/// into pixels, both scanned by ZBar (`zbarimg`).
@Suite struct QRCodeDecodingTests {
    static let activationURL = "https://study.example.org/app/activate?study=BR-0042&code=ABCD-EFGH-JKLM"
    /// A 300-byte activation URL: the long end of what a study's public URL and IDs give.
    static let longURL: String = {
        let start = "https://hyponatrack.hospital-with-a-long-name.example.org/studies/sodium-after-pituitary-surgery/app/activate?study=BR-0042-ZZ&code="
        return start + String(repeating: "ABCD-", count: (300 - start.utf8.count) / 5 + 1).prefix(300 - start.utf8.count)
    }()

    @Test(arguments: [activationURL, longURL])
    func theSVGRenderedByLibrsvgDecodesToTheText(text: String) throws {
        let code = try QRCode(text: text, errorCorrection: .medium)
        let scratch = try Scratch(prefix: "QRCodeTests")
        defer { scratch.remove() }
        try scratch.write(Array(code.svg(moduleSize: 4, quietZone: 4, title: "Activation link").bytes), to: "code.svg")
        let rendered = try Command.run(["rsvg-convert", "--output", scratch.path("code.png"), scratch.path("code.svg")])
        try #require(rendered.status == 0, "rsvg-convert: \(rendered.stderr)")
        #expect(try decoded(scratch.path("code.png")) == text)
    }

    @Test func theLongURLIsThreeHundredBytesAndFitsAnEightyColumnTerminal() throws {
        #expect(Self.longURL.utf8.count == 300)
        let code = try QRCode(text: Self.longURL)
        #expect(code.size + 8 <= 80)
        #expect(code.terminalText().split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test(arguments: [activationURL, longURL])
    func theTerminalTextIsTheMatrixAndDecodesToTheText(text: String) throws {
        let code = try QRCode(text: text)
        let painted = Self.cells(of: code.terminalText())
        let side = code.size + 8
        #expect(painted.count == side + 1)                 // an odd number of rows: the last half line is background
        #expect(painted.allSatisfy { $0.count == side })
        for row in 0..<side {
            for column in 0..<side {
                // On a dark terminal a painted cell is a light module.
                #expect(!painted[row][column] == code.isDark(row: row - 4, column: column - 4), "row \(row) column \(column)")
            }
        }
        #expect(painted[side].allSatisfy { !$0 })
        let scratch = try Scratch(prefix: "QRCodeTests")
        defer { scratch.remove() }
        let dark = painted.prefix(side).map { $0.map { !$0 } }
        try scratch.write(Self.pbm(dark, scale: 4), to: "terminal.pbm")
        #expect(try decoded(scratch.path("terminal.pbm")) == text)
    }

    @Test func onALightTerminalTheCharactersPaintTheDarkModules() throws {
        let code = try QRCode(text: Self.activationURL)
        let painted = Self.cells(of: code.terminalText(quietZone: 2, background: .light))
        for row in 0..<(code.size + 4) {
            for column in 0..<(code.size + 4) {
                #expect(painted[row][column] == code.isDark(row: row - 2, column: column - 2))
            }
        }
    }

    /// ZBar's reading of the image at `path` (`--raw`: the data alone).
    private func decoded(_ path: String) throws -> String {
        let result = try Command.run(["zbarimg", "--raw", "--quiet", path])
        try #require(result.status == 0, "zbarimg found no code: \(result.stderr)")
        return String(result.stdout.dropLast(result.stdout.hasSuffix("\n") ? 1 : 0))
    }

    /// The half-block text as cells, two per character: upper half, then lower half.
    static func cells(of text: String) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            var upper: [Bool] = [], lower: [Bool] = []
            for character in line {
                upper.append(character == "▀" || character == "█")
                lower.append(character == "▄" || character == "█")
                #expect(" ▀▄█".contains(character), "unexpected character \(character)")
            }
            rows += [upper, lower]
        }
        return rows
    }

    /// A plain PBM (`P1`, 1 = black) of the cells, each `scale` pixels square.
    static func pbm(_ dark: [[Bool]], scale: Int) -> [UInt8] {
        let width = (dark.first?.count ?? 0) * scale
        var text = "P1\n\(width) \(dark.count * scale)\n"
        for row in dark {
            let line = row.flatMap { Array(repeating: $0 ? "1" : "0", count: scale) }.joined(separator: " ") + "\n"
            text += String(repeating: line, count: scale)
        }
        return Array(text.utf8)
    }
}
