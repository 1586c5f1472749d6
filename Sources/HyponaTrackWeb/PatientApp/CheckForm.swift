import Foundation
import HTJSON
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// The morning or evening check as a form whose input names are the day API's
/// (`weightMorningKg`, `nausea`, … `vas`, `urineSG`, `fluidIntakeMl`, `emergencySymptoms`).
/// The symptom entry's id is fixed per day and slot (`entryId`), so a resent form updates the
/// same entry instead of adding one.
struct CheckForm {
    enum Slot: String { case morning, evening }

    let layout: AppLayout
    let slot: Slot
    let date: LocalDate
    let texts: WebAppTexts?
    let emergencyCodes: [String]
    let emergencyNumber: String
    /// The patient's own fluid limit, shown beside the fluid field (nil: none set).
    var fluidLimitMl: Double? = nil
    /// Desmopressin doses are asked only of patients it is prescribed to.
    var desmopressinPrescribed = false
    var values: [String: String] = [:]
    var checked: Set<String> = []
    var errors: [String: String] = [:]

    var t: AppText { layout.t }
    var lang: String { t.language.rawValue }

    static func entryId(_ slot: Slot, _ date: LocalDate) -> String { "web-\(slot.rawValue)-\(date)" }
    /// The desmopressin dose entered with this slot's form (one per slot and day, updated when resent).
    static func doseId(_ slot: Slot, _ date: LocalDate) -> String { "web-desmopressin-\(slot.rawValue)-\(date)" }
    var weightField: String { slot == .morning ? "weightMorningKg" : "weightEveningKg" }
    /// The form field of a desmopressin dose (`desmopressinDoses[0].doseMcg` in the day API).
    static let doseField = "doseMcg"
    /// The slot's fields besides the symptom items, in form order; `decimals`: how their range
    /// is written in a message. Vomiting episodes are the day's total (set, not added), on both forms.
    var numberFields: [(name: String, label: String, required: Bool, decimals: Int)] {
        let dose: [(name: String, label: String, required: Bool, decimals: Int)] =
            desmopressinPrescribed ? [(Self.doseField, t.desmopressinDose, false, 0)] : []
        let vomiting = ("vomitingEpisodes", t.vomiting, false, 0)
        return slot == .morning
            ? [(weightField, t.weightMorning, true, 0), ("urineSG", t.urineSG, false, 3), ("fluidIntakeMl", t.fluidIntakeSoFar, false, 0),
               vomiting] + dose
            : [(weightField, t.weightEvening, true, 0), ("fluidIntakeMl", t.fluidIntake, true, 0), vomiting] + dose
    }

    /// Every field a refusal can be shown at, in form order.
    var fieldNames: [String] { numberFields.map(\.name) + WebAppTexts.items + ["vas", "emergencySymptoms"] }

    /// Shows a refusal of the day API's decoder (or of the submission: the date) at its field,
    /// worded in the page's language (`FieldMessages`).
    mutating func refuse(_ error: FieldError) {
        let field = Self.field(error.field)
        errors[errorSlot(field)] = FieldMessages(t.language).text(error.problem, for: kind(of: field))
    }

    /// What kind of field of this form `field` is; nil for one it does not have (an item's time).
    private func kind(of field: String?) -> FieldMessages.Kind? {
        guard let field else { return nil }
        if let number = numberFields.first(where: { $0.name == field }) { return .number(decimals: number.decimals) }
        if WebAppTexts.items.contains(field) { return .choice(ValueRanges.symptomItem) }
        switch field {
        case "vas": return .choice(ValueRanges.vas)
        case "emergencySymptoms": return .emergencySigns
        case "date": return .day
        default: return nil
        }
    }

    /// Where the message for `field` is shown: at its field, or at the weight (the form's first
    /// field) when the form has none for it, so a refusal is never only "check the marked fields".
    func errorSlot(_ field: String?) -> String {
        guard let field else { return weightField }
        return fieldNames.contains(field) ? field : weightField
    }

    /// The form field a refusal's JSON path names: `symptoms[0].nausea` → `nausea`,
    /// `emergencySymptoms[0]` → `emergencySymptoms`; `weightMorningKg` → itself.
    static func field(_ path: String?) -> String? {
        guard let path, let last = path.split(separator: ".").last else { return nil }
        let name = last.prefix { $0 != "[" }
        return name.isEmpty ? nil : String(name)
    }

    func render() -> HTML {
        guard let session = layout.patient else { return HTML() }
        // Every problem at once, each at its field; the summary links to them in form order.
        let summary: HTML = errors.isEmpty ? HTML() : """
            <div class="error-summary" role="alert" id="error-summary"><p class="error">\(t.problems(errors.count))</p>\
            <ul>\(fieldNames.filter { errors[$0] != nil }.map { f -> HTML in "<li><a href=\"#\(f)\">\(name(f)): \(errors[f]!)</a></li>" })</ul></div>
            """
        let numbers: [HTML] = numberFields.map { f in
            // The patient's own limit beside the fluid field, tied to it for screen readers.
            let limit = f.name == "fluidIntakeMl" ? fluidLimitMl.map { t.fluidLimit(PatientApp.number($0)) } : nil
            let hint: HTML = limit.map { "<p class=\"hint\" id=\"\(f.name)-hint\">\($0)</p>" } ?? HTML()
            let described: HTML = limit != nil && errors[f.name] == nil ? " aria-describedby=\"\(f.name)-hint\"" : HTML()
            let mode: HTML = f.name == "vomitingEpisodes" || f.name == "fluidIntakeMl" ? "numeric" : "decimal"
            return """
            <div class="field"><label for="\(f.name)">\(f.label)</label>\(hint)\
            <input type="text" inputmode="\(mode)" id="\(f.name)" name="\(f.name)" value="\(values[f.name] ?? "")"\
            \(f.required ? " required" as HTML : HTML())\(described)\(AppLayout.invalid(errors, f.name))>\(AppLayout.error(errors, f.name))</div>
            """
        }
        let items: [HTML] = WebAppTexts.items.map { item in
            choice(item, legend: texts?.symptom(item, lang) ?? item, range: ValueRanges.symptomItem,
                   word: { texts?.scale[lang]?[$0] ?? String($0) })
        }
        let vas = choice("vas", legend: texts?.vas[lang] ?? "VAS 0–10", range: ValueRanges.vas, word: { String($0) })
        let title = slot == .morning ? t.morningCheck : t.eveningCheck
        return layout.page(title, """
            <p class="muted">\(Vocabulary(language: t.language).writtenDate(date))</p>\(summary)
            <form method="post" action="/app/\(slot.rawValue)" novalidate>\(AppLayout.csrf(session))
            <input type="hidden" name="date" value="\(date.description)"><input type="hidden" name="entryId" value="\(Self.entryId(slot, date))">
            \(numbers[0])
            <h2>\(t.symptoms)</h2>\(items)\(vas)
            \(Array(numbers.dropFirst()))
            \(emergencyBox())
            <button type="submit">\(t.save)</button></form>
            <p><a href="/app/">\(t.today)</a></p>
            """)
    }

    /// A field's name as the error summary says it: its label up to the first bracket, comma or
    /// question mark ("Weight this morning", "How well do you feel overall?").
    private func name(_ field: String) -> String {
        let label = numberFields.first { $0.name == field }?.label
            ?? (field == "vas" ? texts?.vas[lang] : field == "emergencySymptoms" ? t.emergency : texts?.symptom(field, lang)) ?? field
        var short = ""
        for ch in label {
            if ch == "(" || ch == "," { break }
            short.append(ch)
            if ch == "?" { break }
        }
        return short.trimmingCharacters(in: .whitespaces)
    }

    /// A 0…n scale as radio buttons with words, in a fieldset named by its legend.
    private func choice(_ name: String, legend: String, range: ClosedRange<Int>, word: (Int) -> String) -> HTML {
        let options: [HTML] = range.map { v in
            let id = "\(name)-\(v)"
            let on: HTML = values[name] == String(v) ? " checked" : HTML()
            let label: HTML = word(v) == String(v) ? "\(v)" : "\(v) – \(word(v))"
            return "<label for=\"\(id)\"><input type=\"radio\" id=\"\(id)\" name=\"\(name)\" value=\"\(v)\"\(on)>\(label)</label>"
        }
        return """
            <fieldset id="\(name)"\(AppLayout.invalid(errors, name))><legend>\(legend)</legend><div class="choices">\(options)</div>\
            \(AppLayout.error(errors, name))</fieldset>
            """
    }

    private func emergencyBox() -> HTML {
        let boxes: [HTML] = emergencyCodes.map { code in
            let on: HTML = checked.contains(code) ? " checked" : HTML()
            return "<label for=\"em-\(code)\"><input type=\"checkbox\" id=\"em-\(code)\" name=\"emergencySymptoms\" value=\"\(code)\"\(on)>\(texts?.emergency(code, lang) ?? code)</label>"
        }
        return """
            <fieldset class="emergency" id="emergencySymptoms"\(AppLayout.invalid(errors, "emergencySymptoms"))><legend>\(t.emergency)</legend>\
            <p>\(t.emergencyHint)</p><div class="choices">\(boxes)</div>\(AppLayout.error(errors, "emergencySymptoms"))
            <p><strong>\(texts?.callNow(lang, number: emergencyNumber) ?? emergencyNumber)</strong></p>
            <a class="call" href="tel:\(Telephone.dialable(emergencyNumber))">\(t.call) \(emergencyNumber)</a></fieldset>
            """
    }
}
