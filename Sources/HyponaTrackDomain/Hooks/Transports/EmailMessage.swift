import Crypto

/// A plain-text RFC 5322 message: header fields, a blank line, a quoted-printable UTF-8 body,
/// CRLF line endings throughout, every line under 78 characters. Quoted-printable keeps the
/// message 7-bit (no reliance on the server's 8BITMIME) and encodes a "." or "From " at a
/// line's start, so nothing depends on dot-stuffing (which libcurl does anyway).
struct EmailMessage {
    var from: String
    var to: [String]
    var subject: String
    var body: String
    /// Unix seconds for the `Date` field.
    var date: Int64
    /// The `Message-ID` without angle brackets.
    var messageId: String
    /// Additional fields (`Auto-Submitted`, `X-HyponaTrack-Event`); values must be ASCII.
    var extraFields: [(name: String, value: String)] = []

    /// `<32 random hex digits>@<the sender's domain>`: unique without revealing anything.
    static func makeMessageId(from: String) throws -> String {
        let domain = from.split(separator: "@").last.map(String.init) ?? "hyponatrack.invalid"
        return Crypto.hex(try Crypto.randomBytes(16)) + "@" + domain
    }

    /// The wire form for SMTP DATA.
    var bytes: [UInt8] {
        var fields: [(String, String)] = [
            ("Date", Self.rfc5322Date(date)),
            ("From", "HyponaTrack <\(from)>"),
            ("To", to.joined(separator: ", ")),
            ("Subject", Self.encodedHeaderText(subject)),
            ("Message-ID", "<\(messageId)>"),
            ("MIME-Version", "1.0"),
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Transfer-Encoding", "quoted-printable"),
        ]
        fields += extraFields.map { ($0.name, Self.singleLine($0.value)) }
        var text = ""
        for (name, value) in fields { text += Self.folded(name: name, value: value) }
        text += "\r\n"
        text += Self.quotedPrintable(body)
        return Array(text.utf8)
    }

    // MARK: - Header fields

    /// "Mon, 09 Mar 2026 08:00:00 +0000" (RFC 5322 §3.3), in UTC.
    static func rfc5322Date(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(((days % 7) + 7) % 7)]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekday), \(two(day)) \(months[Int(month) - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60)) +0000"
    }

    /// Howard Hinnant's `civil_from_days`: (year, month, day) of days since 1970-01-01.
    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Printable ASCII stays as it is; anything else makes the whole text RFC 2047 encoded
    /// words (`=?UTF-8?B?…?=`), split on character boundaries so each word decodes alone.
    static func encodedHeaderText(_ text: String) -> String {
        let line = singleLine(text)
        guard !line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return line }
        var words: [String] = []
        var chunk: [UInt8] = []
        // 45 bytes of UTF-8 make 60 base64 characters: with "=?UTF-8?B?" and "?=" a word of 72.
        for character in line {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 45 {
                words.append("=?UTF-8?B?" + Base64.standard.encode(chunk) + "?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?" + Base64.standard.encode(chunk) + "?=") }
        return words.joined(separator: " ")
    }

    /// No CR, LF or other control characters in a header value (header injection).
    static func singleLine(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
    }

    /// "Name: value\r\n", folded at spaces (RFC 5322 §2.2.3) to keep lines under 78 characters.
    static func folded(name: String, value: String) -> String {
        var lines: [String] = []
        var current = name + ":"
        for word in value.split(separator: " ", omittingEmptySubsequences: true) {
            if current.count + 1 + word.count > 76, current.count > name.count + 1 {
                lines.append(current)
                current = " " + word
            } else {
                current += " " + word
            }
        }
        lines.append(current)
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    // MARK: - Body

    /// RFC 2045 §6.7 quoted-printable of UTF-8 text; "\n" (or "\r\n") becomes a hard CRLF line
    /// break; lines longer than 76 characters get soft breaks ("=" CRLF). Also encoded: "=",
    /// space and tab at a line's end, a "." or "F" at a line's start (SMTP end-of-data and mbox
    /// "From " lines).
    static func quotedPrintable(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        let normalized = text.replacing("\r\n", with: "\n")
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            let bytes = Array(line.utf8)
            var column = 0
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
                    || ((byte == 0x20 || byte == 0x09) && !isLast)
                let atLineStart = column == 0
                let escaped = !literal || (atLineStart && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "F")))
                let width = escaped ? 3 : 1
                // Leave room for the "=" of a soft break (76 characters at most per line).
                if column + width > 75 {
                    out += Array("=\r\n".utf8)
                    column = 0
                }
                if escaped || (column == 0 && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "F"))) {
                    out += [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                    column += 3
                } else {
                    out.append(byte)
                    column += 1
                }
            }
            out += Array("\r\n".utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
