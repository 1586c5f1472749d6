import Foundation

/// The languages of the pages and the patient instructions.
public enum Language: String, Sendable, CaseIterable {
    case en, de

    /// The first of ours in an `Accept-Language` header (`de-DE,de;q=0.9,en;q=0.8` → de), or nil.
    /// The order of the list is taken as the preference; a tag with `q=0` is refused, so skipped.
    public static func preferred(acceptLanguage header: String?) -> Language? {
        guard let header = header?.lowercased() else { return nil }
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first else { continue }
            if let q = pieces.dropFirst().first(where: { $0.hasPrefix("q=") }), Double(q.dropFirst(2)) == 0 { continue }
            if tag.hasPrefix("de") { return .de }
            if tag.hasPrefix("en") { return .en }
        }
        return nil
    }
}

/// Words kept in both languages side by side: `s("Save", "Speichern")`.
public protocol Bilingual {
    var language: Language { get }
}

extension Bilingual {
    public func s(_ en: String, _ de: String) -> String { language == .de ? de : en }
}

/// A language is its own wording: `request.language.s("Signed out.", "Abgemeldet.")`.
extension Language: Bilingual {
    public var language: Language { self }
}
