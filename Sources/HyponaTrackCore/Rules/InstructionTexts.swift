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
    /// The push reminders' bodies (`push.morning`, `push.evening`, `push.task`, `push.missed`,
    /// `push.catchUp`, `push.nudge`) → language → text; empty in a file without a `push` section.
    /// Never a level, a reason or a measurement: a push can be read on a locked screen.
    public var push: [String: [String: String]] = [:]
    public static let pushKeys = ["morning", "evening", "task", "missed", "catchUp", "nudge"]

    /// The push text `key` in `language` (else the default language), or nil.
    public func pushText(_ key: String, language: String?) -> String? {
        push[key]?[self.language(language)] ?? push[key]?[defaultLanguage]
    }

    /// The text for a level and set of reasons, in `language` (falling back to the default), with
    /// the disclaimer: what the patient is told. `emergencyNumber` (`app.emergencyNumber`) fills
    /// `{emergencyNumber}`; there is no default, so no caller can show the template or another number.
    public func text(level: Level, reasonCodes: [String], language: String?, emergencyNumber: String) -> (text: String, language: String) {
        let lang = self.language(language)
        let body = self.body(level: level, reasonCodes: reasonCodes, language: lang, emergencyNumber: emergencyNumber)
        return (body + " " + disclaimer(lang, emergencyNumber: emergencyNumber), lang)
    }

    /// The instruction without the disclaimer (a page that shows the disclaimer elsewhere).
    public func body(level: Level, reasonCodes: [String], language: String?, emergencyNumber: String) -> String {
        let lang = self.language(language)
        var body = levels[level]?[lang] ?? ""
        for code in reasonCodes {
            if let override = reasonOverrides[code]?[lang] { body = override; break }
        }
        return EmergencyNumberText.fill(body, number: emergencyNumber)
    }

    public func disclaimer(_ language: String?, emergencyNumber: String) -> String {
        EmergencyNumberText.fill(disclaimer[self.language(language)] ?? "", number: emergencyNumber)
    }

    /// `language` when it is one of ours, else the default.
    func language(_ language: String?) -> String {
        language.flatMap { InstructionTexts.languages.contains($0) ? $0 : nil } ?? defaultLanguage
    }

    static func parse(_ json: JSONValue) throws(FieldError) -> InstructionTexts {
        let root = try ObjectReader(json)
        _ = root.raw("description")
        // Every text here may name the number as {emergencyNumber}; `required`: it must.
        func perLanguage(_ value: JSONValue, _ path: String, required: Bool = false) throws(FieldError) -> [String: String] {
            let r = try ObjectReader(value, path: path)
            var out: [String: String] = [:]
            for lang in languages {
                let text = try r.required(lang, .string(length: 1...2000))
                try EmergencyNumberText.validate(text, r.fieldPath(lang), required: required)
                out[lang] = text
            }
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
        let emergency = ReasonCode.emergencySymptom.rawValue
        let o = try ObjectReader(try root.required("reasonOverrides", .any), path: "reasonOverrides")
        for code in o.object.keys {
            // A misspelt code would never match: an emergency would get the generic red text.
            guard ReasonCode(rawValue: code) != nil else {
                throw FieldError.invalid(o.fieldPath(code), "is not a reason code the engine reports")
            }
            // A patient reporting a seizure is told to call now: the text names the number to dial.
            overrides[code] = try perLanguage(o.raw(code)!, o.fieldPath(code), required: code == emergency)
        }
        guard overrides[emergency] != nil else {
            throw FieldError.invalid(o.fieldPath(emergency), "is required: it tells a patient with an emergency sign to call {emergencyNumber}")
        }
        let webApp = try root.raw("webApp").flatMap { v throws(FieldError) in v.isNull ? nil : try WebAppTexts.parse(v, path: "webApp") }
        var push: [String: [String: String]] = [:]
        if let section = root.raw("push"), !section.isNull {
            let pr = try ObjectReader(section, path: "push")
            for key in pushKeys { push[key] = try perLanguage(try pr.required(key, .any), "push.\(key)") }
            try pr.finish()
        }
        try root.finish()
        var texts = InstructionTexts(levels: levels, reasonOverrides: overrides, disclaimer: disclaimer,
                                     defaultLanguage: defaultLanguage, webApp: webApp)
        texts.push = push
        return texts
    }
}
