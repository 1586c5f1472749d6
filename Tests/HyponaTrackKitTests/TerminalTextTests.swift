import Testing
import HTJSON
@testable import HyponaTrackCLI

/// Outside text cannot drive the terminal the CLI prints on (issue 33, finding 3): control
/// characters and bidi overrides come out as visible `\u{…}` escapes, a value cannot break its
/// line or table row, and JSON output is left as JSON.
@Suite struct TerminalTextTests {
    /// The crafted entry name of the finding: set the window title, return to the line's
    /// start, print a forged verdict, erase the line.
    static let forged = "urn:uuid:1\u{1b}]0;x\u{07}\r all values verified OK\u{1b}[2K"

    /// No byte a terminal acts on except LF: C0, DEL, C1 (as UTF-8), bidi overrides and isolates.
    static func isTerminalSafe(_ text: String) -> Bool {
        !text.unicodeScalars.contains { s in
            (s.value < 0x20 && s != "\n") || (0x7F...0x9F).contains(s.value)
                || (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value)
        }
    }

    /// What a command printed, as `EvaluateCommandTests` captures it.
    typealias Captured = EvaluateCommandTests.Captured

    @Test func escapeAndCarriageReturnBecomeVisibleEscapes() {
        #expect(TerminalText.escaped(Self.forged) == #"urn:uuid:1\u{1b}]0;x\u{7}\u{d} all values verified OK\u{1b}[2K"#)
    }

    @Test func everyC0ControlDelAndC1ControlIsEscaped() {
        for value in Array(0x00...0x1F) + Array(0x7F...0x9F) {
            let scalar = Unicode.Scalar(UInt32(value))!
            let escaped = TerminalText.escaped("a\(Character(scalar))b")
            #expect(escaped == "a\\u{\(String(value, radix: 16))}b")
            #expect(Self.isTerminalSafe(escaped))
        }
    }

    @Test func bidiOverridesAndIsolatesAreEscaped() {
        for value in Array(0x202A...0x202E) + Array(0x2066...0x2069) {
            let scalar = Unicode.Scalar(UInt32(value))!
            #expect(TerminalText.escaped("KO\(Character(scalar))OK") == "KO\\u{\(String(value, radix: 16))}OK")
        }
    }

    @Test func aValueFromOutsideCannotBreakItsLine() {
        #expect(TerminalText.escaped("a\nb\r\nc\td") == #"a\u{a}b\u{d}\u{a}c\u{9}d"#)
    }

    @Test func aMessageKeepsItsLineBreaksButNotTheOtherControls() {
        #expect(TerminalText.escaped("Not proposed:\nx\r\u{1b}[2K", keepingLineBreaks: true) == "Not proposed:\nx\\u{d}\\u{1b}[2K")
    }

    @Test func printableTextIsUnchanged() {
        for text in ["IMP-1", "Na⁺ 131 mmol/L – Übelkeit", "مرحبا", "患者", "🙂", "C:\\path\\u{1b}", "", "\u{00A0}\u{00E9}"] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    @Test func aTableCellWithALineBreakCannotForgeARow() {
        let table = Show.table(["ENTRY", "REASON"], [["a\nb  verified OK", "status"], ["c", "other_code"]])
        #expect(table.split(separator: "\n").count == 3, "\(table)")
        #expect(table.contains(#"a\u{a}b  verified OK"#))
    }

    @Test func theDaemonsValuesComeOutEscapedAndOnOneLine() {
        let answer: JSONValue = ["entry": .string(Self.forged), "detail": ["nested": "\u{9b}2J\u{202E}"]]
        #expect(Show.text(answer, "entry") == TerminalText.escaped(Self.forged))
        #expect(Self.isTerminalSafe(Show.text(answer, "detail")) && Show.text(answer, "detail").contains(#"\u{9b}2J\u{202e}"#))
    }

    @Test func theImportReportPrintsNoControlCharacter() {
        let c = Captured()
        let answer: JSONValue = ["proposed": [], "skippedOutsideWindow": 0, "refusedTotal": 2, "refused": [
            ["entry": .string(Self.forged), "reason": "other_code", "detail": "code \u{1b}[31mx\r\nall values verified OK"],
            ["entry": "entry[2]", "reason": "status", "detail": "status \u{7f}\u{85}\u{2066}final"],
        ]]
        ImportCommands.report(answer, c.io)
        #expect(Self.isTerminalSafe(c.stdout), "\(c.stdout.debugDescription)")
        // The summary, "Not proposed:", the header and exactly the two refused rows.
        #expect(c.stdout.split(separator: "\n").count == 5, "\(c.stdout)")
        #expect(c.stdout.contains(#"\u{1b}]0;x\u{7}\u{d} all values verified OK\u{1b}[2K"#))
        #expect(!c.stdout.split(separator: "\n").contains { $0.hasPrefix("all values verified OK") })
    }

    @Test func everyPrintedLineIsEscapedButJSONIsLeftAsJSON() throws {
        let c = Captured()
        c.io.out("ok\n\u{1b}[2J")
        c.io.error("refused: \u{9d}0;x\u{7}")
        let document: JSONValue = ["entry": .string(Self.forged + "\u{7f}")]
        c.io.json(document)
        let lines = c.out.withLock { $0 }
        #expect(lines[0] == #"ok"# + "\n" + #"\u{1b}[2J"#)
        #expect(c.stderr == #"refused: \u{9d}0;x\u{7}"#)
        // JSON escapes the C0 controls itself and parses back to the very same text.
        #expect(!lines[1].utf8.contains { $0 < 0x20 && $0 != 0x0A }, "\(lines[1].debugDescription)")
        #expect(try JSONParser.parse(lines[1]) == document)
    }
}
