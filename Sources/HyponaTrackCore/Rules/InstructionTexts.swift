import HTJSON

/// Patient-facing instructions per level and language, from `config/instructions.json`
/// (part of the rules version). Every text ends with the "not a validated medical device" notice.
public struct InstructionTexts: Sendable, Equatable {
    public static let languages = ["en", "de"]

    /// level → language → text
    public var levels: [Level: [String: String]]
    /// Texts that replace the level text when a reason code fired (e.g. `emergency_symptom`).
    public var reasonOverrides: [String: [String: String]]
    public var disclaimer: [String: String]
    public var defaultLanguage: String
    /// The web check-in's wording; nil in a file without a `webApp` section (the form then
    /// shows the item names).
    public var webApp: WebAppTexts?

    /// The text for a level and set of reasons, in `language` (falling back to the default).
    public func text(level: Level, reasonCodes: [String], language: String?) -> (text: String, language: String) {
        let lang = language.flatMap { InstructionTexts.languages.contains($0) ? $0 : nil } ?? defaultLanguage
        var body = levels[level]?[lang] ?? ""
        for code in reasonCodes {
            if let override = reasonOverrides[code]?[lang] { body = override; break }
        }
        return (body + " " + (disclaimer[lang] ?? ""), lang)
    }

    static func parse(_ json: JSONValue) throws(FieldError) -> InstructionTexts {
        let root = try ObjectReader(json)
        _ = root.raw("description")
        func perLanguage(_ value: JSONValue, _ path: String) throws(FieldError) -> [String: String] {
            let r = try ObjectReader(value, path: path)
            var out: [String: String] = [:]
            for lang in languages { out[lang] = try r.required(lang, .string(length: 1...2000)) }
            try r.finish()
            return out
        }
        let defaultLanguage = try root.required("defaultLanguage", .oneOf(languages))
        let disclaimer = try perLanguage(try root.required("disclaimer", .any), "disclaimer")
        for (lang, text) in disclaimer where !text.lowercased().contains(lang == "de" ? "medizinprodukt" : "medical device") {
            throw FieldError.invalid("disclaimer.\(lang)", "must say that this is not a validated medical device")
        }
        let levelsReader = try ObjectReader(try root.required("levels", .any), path: "levels")
        var levels: [Level: [String: String]] = [:]
        for level in [Level.green, .yellow, .red] {
            levels[level] = try perLanguage(try levelsReader.required(level.rawValue, .any), "levels.\(level.rawValue)")
        }
        try levelsReader.finish()
        var overrides: [String: [String: String]] = [:]
        if let o = root.raw("reasonOverrides"), !o.isNull {
            let r = try ObjectReader(o, path: "reasonOverrides")
            for code in r.object.keys {
                // A misspelt code would never match: an emergency would get the generic red text.
                guard ReasonCode(rawValue: code) != nil else {
                    throw FieldError.invalid(r.fieldPath(code), "is not a reason code the engine reports")
                }
                overrides[code] = try perLanguage(r.raw(code)!, r.fieldPath(code))
            }
        }
        let webApp = try root.raw("webApp").flatMap { v throws(FieldError) in v.isNull ? nil : try WebAppTexts.parse(v, path: "webApp") }
        try root.finish()
        return InstructionTexts(levels: levels, reasonOverrides: overrides, disclaimer: disclaimer,
                                defaultLanguage: defaultLanguage, webApp: webApp)
    }
}
