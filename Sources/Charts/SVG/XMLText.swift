/// Escaping for XML text and attribute values (XML 1.0 §2.4 and §3.3.3): `&`, `<`, `>`, `"` and
/// `'` become entities, so a study ID or label can never close an element or an attribute.
/// Characters XML 1.0 does not allow at all (C0 controls except tab, newline and carriage return,
/// U+FFFE, U+FFFF) become U+FFFD instead of producing a document no parser accepts.
enum XMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// An XML name fragment for ids and class names: ASCII letters, digits and `-`, anything else `-`.
    static func token(_ text: String) -> String {
        let mapped = text.unicodeScalars.map { s -> Character in
            s.isASCII && (("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s)) ? Character(s) : "-"
        }
        let token = String(mapped)
        return token.isEmpty || !(token.first!.isLetter) ? "c" + token : token
    }
}

/// Builds SVG markup: every attribute value and every text goes through `XMLText.escape`, so
/// nothing a caller passes can add markup. No `style` attributes (the console's CSP forbids inline
/// style): presentation attributes and classes only.
struct SVGWriter {
    private(set) var output = ""

    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        output += "<" + name + SVGWriter.attributes(attributes) + ">"
    }

    mutating func close(_ name: String) { output += "</" + name + ">" }

    mutating func empty(_ name: String, _ attributes: [(String, String)]) {
        output += "<" + name + SVGWriter.attributes(attributes) + "/>"
    }

    /// `<name …>text</name>` with the text escaped.
    mutating func element(_ name: String, _ attributes: [(String, String)] = [], text: String) {
        open(name, attributes)
        output += XMLText.escape(text)
        close(name)
    }

    mutating func newline() { output += "\n" }

    static func attributes(_ attributes: [(String, String)]) -> String {
        attributes.map { " " + $0.0 + "=\"" + XMLText.escape($0.1) + "\"" }.joined()
    }

    /// A coordinate: at most two decimals, never an exponent.
    static func number(_ v: Double) -> String { ChartNumber.format(v, decimals: 2, trimZeros: true) }

    /// `points` of a polyline or polygon.
    static func points(_ points: [ChartPosition]) -> String {
        points.map { number($0.x) + "," + number($0.y) }.joined(separator: " ")
    }
}
