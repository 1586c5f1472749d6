import Foundation
import HTJSON
import HTTPServer
import HyponaTrackCore

/// A posted check form: its answers as typed, one member per form field (`weightMorningKg`,
/// `nausea`, `vas`, `emergencySymptoms`, `doseMcg`), and the JSON body the day API would get
/// from the app for them. `FormCheck` judges the answers with the day API's own decoder, so a
/// refused form shows every problem at once, each at its field (docs/product.md, W), the same
/// way the console's forms do. Blank fields are absent; numbers accept a decimal comma
/// (`FormInput.number`).
struct CheckFormBody {
    let slot: CheckForm.Slot
    let date: LocalDate
    let time: Timestamp
    /// The answers as typed.
    let answers: JSONObject
    /// Whether the form has the desmopressin dose field.
    private let takesDose: Bool

    /// `fields`: the form's number fields (`CheckForm.numberFields`), `doseMcg` among them when asked.
    init(form: HTTPQueryParameters, slot: CheckForm.Slot, date: LocalDate, fields: [String], time: Timestamp) {
        self.slot = slot
        self.date = date
        self.time = time
        takesDose = fields.contains(CheckForm.doseField)
        var answers = JSONObject()
        for name in fields + WebAppTexts.items + ["vas"] {
            if let raw = form[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty { answers[name] = FormInput.number(raw) }
        }
        let codes = form.values(for: "emergencySymptoms")
        if !codes.isEmpty { answers["emergencySymptoms"] = .array(codes.map { .string($0) }) }
        self.answers = answers
    }

    /// What stands in for a refused answer while the others are judged: a symptom item or the VAS
    /// answered 0; any other refused field is left out.
    static let standIns = JSONObject((WebAppTexts.items + ["vas"]).map { ($0, JSONValue.int(0)) })

    /// The form field a refusal of the day API names (`symptoms[0].nausea` → `nausea`,
    /// `desmopressinDoses[0].doseMcg` → `doseMcg`).
    static func formField(_ error: FieldError) -> String? { CheckForm.field(error.field) }

    /// The day API's body for `answers` (the form's, or with stand-ins in place): the day's own
    /// numbers, the emergency signs, the slot's symptom entry and the dose.
    func body(_ answers: JSONObject) -> JSONValue {
        var o = JSONObject()
        var entry = JSONObject([("id", .string(CheckForm.entryId(slot, date))), ("time", .string(time.description)),
                                ("slot", .string(slot.rawValue))])
        for name in answers.keys {
            guard let value = answers[name] else { continue }
            switch name {
            case _ where WebAppTexts.items.contains(name) || name == "vas": entry[name] = value
            case CheckForm.doseField:
                guard takesDose else { continue }
                o["desmopressinDoses"] = .array([.object(JSONObject([("id", .string(CheckForm.doseId(slot, date))),
                                                                     ("time", .string(time.description)), ("doseMcg", value)]))])
            default: o[name] = value
            }
        }
        o["symptoms"] = .array([.object(entry)])
        return .object(o)
    }
}
