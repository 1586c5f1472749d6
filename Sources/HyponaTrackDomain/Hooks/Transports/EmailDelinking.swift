/// Breaks what a mail client would turn into a link in free text of a staff e-mail (a note, a
/// name, a failure message), so an alert mail never carries one (`EmailText`): `https://x`
/// becomes `https[:]//x`, `www.x` becomes `www[.]x`, and a bare domain name (`evil.example`,
/// `pay-here.com/x`, `nina@clinic.org`) has each dot that starts a label of two or more letters
/// bracketed (`evil[.]example`): clients link bare names by their top-level domain, and a list
/// of those would age, so every letter label counts. Numbers and times keep their dots (`1.021`,
/// `12.5 kg`, `8.30`: a digit follows), and so do one-letter abbreviations (`i.v.`, `z.B.`).
enum EmailDelinking {
    static func delinked(_ text: String) -> String {
        let chars = Array(text.replacing("://", with: "[:]//"))
        var out = ""
        out.reserveCapacity(chars.count + 8)
        for (i, c) in chars.enumerated() {
            if isDot(c), i > 0, isLabel(chars[i - 1]), breaks(chars, dot: i) {
                out += "[.]"
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// Whether the dot at `dot` joins two labels of a name: the label after it starts with a
    /// letter and has two or more characters, or the label before it is `www`.
    private static func breaks(_ chars: [Character], dot: Int) -> Bool {
        var start = dot
        while start > 0, isLabel(chars[start - 1]) { start -= 1 }
        if String(chars[start..<dot]).lowercased() == "www" { return true }
        var end = dot + 1
        while end < chars.count, isLabel(chars[end]) { end += 1 }
        guard end - (dot + 1) >= 2, chars[dot + 1].isLetter else { return false }
        return true
    }

    /// A character of a host name's label (an internationalised one too).
    private static func isLabel(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "-" }

    /// A full stop, or one of the dots IDNA reads as one (ideographic, full-width, half-width).
    private static func isDot(_ c: Character) -> Bool { c == "." || c == "\u{3002}" || c == "\u{FF0E}" || c == "\u{FF61}" }
}
