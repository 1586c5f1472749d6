/// Text the CLI did not write itself (the daemon's answers, which carry names from uploaded
/// files such as zip entry names and FHIR `fullUrl`s; its error messages; command-line words),
/// made safe to print on a terminal. A terminal obeys the control characters it is sent: ESC
/// starts sequences that erase lines or set the window title, CR returns to the line's start,
/// a C1 byte is an 8-bit ESC sequence, and the bidi overrides reorder what follows. A crafted
/// entry name could otherwise print a forged "all values verified OK" over the real rows
/// (issue 33, finding 3). Each such character is shown as a `\u{1b}`-style escape, so it
/// is visible and does nothing.
///
/// The one rule, applied by `CLIOutput` to every line it prints and by `Show` to every value
/// of the daemon's answer. JSON output (`--json`, `evaluate`) does not pass through here:
/// `JSONSerializer` escapes every C0 control itself, and these escapes would not be JSON.
enum TerminalText {
    /// `text` with every character `isNeutralised` rejects written as `\u{HEX}` (lowercase
    /// hex). LF is escaped too unless `keepingLineBreaks`: a value from outside sits on one
    /// line (a table cell, a word in a sentence) and must not start a forged row, while a
    /// whole message the CLI put together keeps the line breaks it chose.
    static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        // Nearly all text is clean: hand it back without copying.
        guard text.unicodeScalars.contains(where: { isNeutralised($0, keepingLineBreaks: keepingLineBreaks) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isNeutralised(scalar, keepingLineBreaks: keepingLineBreaks) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether a terminal would act on `scalar` instead of showing it.
    static func isNeutralised(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x0A: return !keepingLineBreaks
        case 0x00...0x1F: return true          // C0: ESC, CR, BEL, BS, tab, …
        case 0x7F...0x9F: return true          // DEL, and C1 (0x9B is CSI, 0x9D OSC)
        case 0x202A...0x202E: return true      // bidi embeddings and overrides (LRE … RLO)
        case 0x2066...0x2069: return true      // bidi isolates (LRI … PDI)
        default: return false
        }
    }
}
