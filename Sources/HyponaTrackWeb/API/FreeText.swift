import HTJSON
import HyponaTrackDomain

/// What a free text staff type (a note, a reason) may hold. It is read later where a stray
/// character does harm: NUL and lone CRs cut or forge lines in CSV exports, logs, REDCap and
/// e-mail; the bidi embedding, override and isolate characters (U+202A–U+202E, U+2066–U+2069)
/// show a note's words in another order than stored ("Trojan Source", CVE-2021-42574), so a
/// colleague reads something other than what was written; the bidi marks (U+200E, U+200F,
/// U+061C) move neighbouring digits and signs the same way ("Na 131" can read "131 Na", a minus
/// can jump). U+2028/U+2029 break a line where CSV, logs and scripts see none; the invisible
/// U+200B, U+2060 and U+FEFF make two notes or names that look the same differ. Line breaks (LF,
/// CR LF) and tabs are text; every other control character (C0, DEL, C1) is not. The joiners
/// U+200C/U+200D stay: Persian, Indic scripts and emoji need them.
enum FreeText {
    /// Throws `invalid_value` for `path` at the first character `text` may not hold.
    static func check(_ text: String, path: String) throws(FieldError) {
        guard let bad = firstForbidden(in: text) else { return }
        throw FieldError.invalid(path, "contains \(name(bad.value)), a control, text-direction or invisible character; only line breaks "
                                 + "(LF, CR LF) and tabs are allowed", problem: .forbiddenCharacter(codePoint: bad.value))
    }

    /// The first character `text` may not hold, or nil.
    static func firstForbidden(in text: String) -> Unicode.Scalar? {
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let c = next {
            next = scalars.next()
            switch c.value {
            case 0x09, 0x0A: continue
            case 0x0D where next?.value == 0x0A: continue   // CR LF, as a browser sends a textarea's line breaks
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069,   // controls, bidi embeddings and isolates
                 0x200E, 0x200F, 0x061C,                                         // bidi marks
                 0x2028, 0x2029, 0x200B, 0x2060, 0xFEFF: return c                // separators, invisible characters
            default: continue
            }
        }
        return nil
    }

    /// `U+202E`, `U+0000`: how a refusal names a character.
    static func name(_ codePoint: UInt32) -> String {
        let hex = String(codePoint, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
