import Foundation
import HTJSON
import HTTPServer
import HyponaTrackCore

/// A posted check form as the JSON body the day API would get from the app, whole (`body`) or
/// in parts that the decoder can judge one by one (`parts`), so that a refused form shows every
/// problem at once, each at its field (docs/product.md, W). Blank fields are absent; numbers
/// accept a decimal comma (`FormInput.number`).
struct CheckFormBody {
    let form: HTTPQueryParameters
    let slot: CheckForm.Slot
    let date: LocalDate
    /// The form's number fields (`CheckForm.numberFields`), `doseMcg` among them when asked.
    let fields: [String]
    let time: Timestamp

    private func number(_ name: String) -> JSONValue? {
        guard let raw = form[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        return FormInput.number(raw)
    }

    /// The day's own fields (weights, fluid, urine SG, vomiting episodes) as typed.
    private var dayFields: [(String, JSONValue)] {
        fields.filter { $0 != CheckForm.doseField }.compactMap { name in number(name).map { (name, $0) } }
    }

    private var emergency: JSONValue? {
        let codes = form.values(for: "emergencySymptoms")
        return codes.isEmpty ? nil : .array(codes.map { .string($0) })
    }

    /// The slot's symptom entry as typed; with `checking`, only that item (or the VAS) as typed and
    /// the others answered validly (0), so a part judges one answer.
    private func entry(checking item: String? = nil) -> JSONValue {
        var entry = JSONObject([("id", .string(CheckForm.entryId(slot, date))), ("time", .string(time.description)),
                                ("slot", .string(slot.rawValue))])
        for name in WebAppTexts.items + ["vas"] {
            if let v = item == nil || item == name ? number(name) : .int(0) { entry[name] = v }
        }
        return .object(entry)
    }

    /// A desmopressin dose typed into the form, as the day API's list item.
    private var dose: JSONValue? {
        guard fields.contains(CheckForm.doseField), let v = number(CheckForm.doseField) else { return nil }
        return .array([.object(JSONObject([("id", .string(CheckForm.doseId(slot, date))), ("time", .string(time.description)),
                                           ("doseMcg", v)]))])
    }

    /// The whole form.
    func body() -> JSONValue {
        var o = JSONObject(dayFields)
        if let emergency { o["emergencySymptoms"] = emergency }
        o["symptoms"] = .array([entry()])
        if let dose { o["desmopressinDoses"] = dose }
        return .object(o)
    }

    /// One body per field: each number, each symptom item and the VAS (the others answered
    /// validly), the emergency signs, the dose.
    func parts() -> [JSONValue] {
        var parts: [JSONValue] = dayFields.map { .object(JSONObject([$0])) }
        for name in WebAppTexts.items + ["vas"] { parts.append(.object(JSONObject([("symptoms", .array([entry(checking: name)]))]))) }
        if let emergency { parts.append(.object(JSONObject([("emergencySymptoms", emergency)]))) }
        if let dose { parts.append(.object(JSONObject([("desmopressinDoses", dose)]))) }
        return parts
    }
}
