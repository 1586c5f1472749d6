import HTJSON
import HyponaTrackDomain

/// The query parameters of every CSV download, API and console alike (docs/product.md,
/// "Exports and statistics"): `dialect` (`rfc4180`, the default, or `excel`) and `lang` (`en`
/// or `de`: the spreadsheet's language; absent, the console page's language, else English).
/// An unknown value of either is refused, 400 `invalid_value` naming it, never read as the default.
enum CSVParameters {
    static let dialects = ["rfc4180", "excel"]

    static let dialect = QueryParameter("dialect", schema: S.oneOf(dialects), description:
        "rfc4180 (absent): RFC 4180, values exactly as stored; excel: UTF-8 with a byte order mark, `;` between fields, "
        + "a decimal comma when lang=de, and a text cell starting with = + - @, a tab or CR prefixed with '")
    static let language = QueryParameter("lang", schema: S.oneOf(Language.allCases.map(\.rawValue)), description:
        "the spreadsheet's language with dialect=excel: de writes decimal commas and the reasons_text column in German (absent: en)")
    static let studyId = QueryParameter("studyId", schema: S.studyId, description: "only this patient's (absent: every patient's)")

    /// What every CSV route declares besides `studyId`.
    static let declared = [dialect, language]

    /// The dialect a request asks for; `pageLanguage` is the console page's (nil: the API's `en`).
    static func dialect(_ query: (String) -> String?, pageLanguage: Language?) throws -> CSVDialect {
        var language = pageLanguage ?? .en
        if let text = query(Self.language.name) {
            guard let chosen = Language(rawValue: text) else { throw APIError.invalid(Self.language.name, "lang is en or de") }
            language = chosen
        }
        switch query(Self.dialect.name) {
        case nil, "rfc4180"?: return .rfc4180
        case "excel"?: return .excel(language)
        default: throw APIError.invalid(Self.dialect.name, "dialect is rfc4180 or excel")
        }
    }
}
