import HTJSON

/// The patient web check-in's wording (`webApp` in `config/instructions.json`, so part of the
/// rules version): the five symptom items, their 0–3 scale, the well-being scale, the
/// emergency symptoms and the call-now instruction. Every text in English and German.
public struct WebAppTexts: Sendable, Equatable {
    /// The day API's symptom item names, in the order the form shows them.
    public static let items = ["nausea", "headache", "fatigue", "confusion", "muscleCramps"]

    /// item → language → label
    public var symptoms: [String: [String: String]]
    /// language → the four words for 0, 1, 2, 3
    public var scale: [String: [String]]
    public var vas: [String: String]
    /// emergency symptom code → language → label
    public var emergencySymptoms: [String: [String: String]]
    /// language → text with `{emergencyNumber}`
    public var callNow: [String: String]
    /// What a yellow light says about the clinic's call: `today` (`{until}`), `laterToday`
    /// (`{from}`, `{until}`), `nextWorkingDay` (`{day}`, `{from}`), `callClinic` → language → text.
    public var clinicCall: [String: [String: String]]

    /// The `clinicCall` texts and the placeholders each may use.
    public static let clinicCallPlaceholders: [(key: String, placeholders: Set<String>)] = [
        ("today", ["until"]), ("laterToday", ["from", "until"]), ("nextWorkingDay", ["day", "from"]), ("callClinic", []),
    ]

    /// The `clinicCall` text `key` in `language`, its placeholders filled from `values`.
    public func clinicCall(_ key: String, _ language: String, _ values: [String: String] = [:]) -> String {
        var text = clinicCall[key]?[language] ?? ""
        for (name, value) in values { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    public func symptom(_ item: String, _ language: String) -> String { symptoms[item]?[language] ?? item }
    public func emergency(_ code: String, _ language: String) -> String { emergencySymptoms[code]?[language] ?? code }

    public func callNow(_ language: String, number: String) -> String {
        EmergencyNumberText.fill(callNow[language] ?? "", number: number)
    }

    static func parse(_ json: JSONValue, path: String) throws(FieldError) -> WebAppTexts {
        let r = try ObjectReader(json, path: path)
        _ = r.raw("description")
        // Only callNow is filled with the number (and must name it); a placeholder in a label
        // would be shown as written, so none may carry braces.
        func perLanguage(_ value: JSONValue, _ path: String, callNow: Bool = false) throws(FieldError) -> [String: String] {
            let o = try ObjectReader(value, path: path)
            var out: [String: String] = [:]
            for lang in InstructionTexts.languages {
                let text = try o.required(lang, .string(length: 1...500))
                if callNow {
                    try EmergencyNumberText.validate(text, o.fieldPath(lang), required: true)
                } else if text.contains("{") || text.contains("}") {
                    throw FieldError.invalid(o.fieldPath(lang), "a label is shown as written: no placeholders")
                }
                out[lang] = text
            }
            try o.finish()
            return out
        }
        let s = try ObjectReader(try r.required("symptoms", .any), path: r.fieldPath("symptoms"))
        var symptoms: [String: [String: String]] = [:]
        for item in items { symptoms[item] = try perLanguage(try s.required(item, .any), s.fieldPath(item)) }
        try s.finish()
        let sc = try ObjectReader(try r.required("scale", .any), path: r.fieldPath("scale"))
        var scale: [String: [String]] = [:]
        for lang in InstructionTexts.languages {
            let words = try sc.optionalArray(lang, maxCount: 4) { v, p throws(FieldError) in try JSONRead.string(length: 1...40).convert(v, p) } ?? []
            guard words.count == 4 else { throw FieldError.invalid(sc.fieldPath(lang), "four words, for 0, 1, 2 and 3") }
            scale[lang] = words
        }
        try sc.finish()
        let vas = try perLanguage(try r.required("vas", .any), r.fieldPath("vas"))
        let e = try ObjectReader(try r.required("emergencySymptoms", .any), path: r.fieldPath("emergencySymptoms"))
        var emergency: [String: [String: String]] = [:]
        for code in e.object.keys { emergency[code] = try perLanguage(e.raw(code)!, e.fieldPath(code)) }
        let callNow = try perLanguage(try r.required("callNow", .any), r.fieldPath("callNow"), callNow: true)
        let cc = try ObjectReader(try r.required("clinicCall", .any), path: r.fieldPath("clinicCall"))
        var clinicCall: [String: [String: String]] = [:]
        for (key, allowed) in clinicCallPlaceholders {
            let o = try ObjectReader(try cc.required(key, .any), path: cc.fieldPath(key))
            var texts: [String: String] = [:]
            for lang in InstructionTexts.languages {
                let text = try o.required(lang, .string(length: 1...500))
                // A misspelt placeholder would reach the patient as written.
                if let bad = placeholders(text).first(where: { !allowed.contains($0) }) ?? (unbalanced(text) ? "" : nil) {
                    throw FieldError.invalid(o.fieldPath(lang), "unknown placeholder {\(bad)}; this text may use "
                        + (allowed.isEmpty ? "none" : allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")))
                }
                texts[lang] = text
            }
            try o.finish()
            clinicCall[key] = texts
        }
        try cc.finish()
        try r.finish()
        return WebAppTexts(symptoms: symptoms, scale: scale, vas: vas, emergencySymptoms: emergency, callNow: callNow,
                           clinicCall: clinicCall)
    }

    /// The names between braces in `text`.
    static func placeholders(_ text: String) -> [String] {
        text.split(separator: "{", omittingEmptySubsequences: false).dropFirst().map { String($0.prefix { $0 != "}" }) }
    }

    /// Braces that do not pair up (`{until`, `until}`).
    static func unbalanced(_ text: String) -> Bool {
        text.filter { $0 == "{" }.count != text.filter { $0 == "}" }.count
    }
}
