import Charts
import HTJSON
import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// The profile's fields as one form, for enrolment (with the study ID) and for editing (every
/// field the API's `PATCH` takes, shown as stored). The posted form becomes the JSON body the
/// API would get (`body`), so the API's decoder decides what is accepted and names the field.
struct ProfileForm {
    let fields: FormFields
    let t: ConsoleText
    let rules: RuleSet
    let enrolment: Bool

    /// Text and number fields, by their JSON path, with their kind of input.
    static let numbers: [(name: String, mode: String)] = [
        ("age", "numeric"), ("bmi", "decimal"), ("baselineWeightKg", "decimal"), ("katB.podSodium", "decimal"),
        ("katB.preopSodium", "decimal"), ("katB.operationMinutes", "numeric"), ("fluidLimitMl", "numeric"),
        ("baselineReactionTimeMs", "numeric"),
    ]
    static let texts = ["studyId", "timeZone", "consentVersion"]
    static let dates = ["surgeryDate", "consentDate"]
    static let choices = ["sex", "histology", "katB.csfLeak", "katC.postopNausea"]
    static let flags = ["stalkDeviation", "katC.diabetesInsipidus", "katC.desmopressin", "katC.newCortisolDeficiency",
                        "diabetesInsipidusActive", "desmopressinPrescribed", "simplifiedMode", "webOnly", "loanDevice", "baselineIsPreOp"]
    static let lists = ["riskMedications"]
    /// The fields in the order the form shows them (the refusal summary's order).
    static let order = ["studyId", "surgeryDate", "timeZone", "age", "sex", "bmi", "baselineWeightKg", "baselineIsPreOp", "histology",
                        "stalkDeviation", "riskMedications", "katB.podSodium", "katB.preopSodium", "katB.operationMinutes", "katB.csfLeak",
                        "katC.postopNausea", "katC.diabetesInsipidus", "katC.desmopressin", "katC.newCortisolDeficiency", "fluidLimitMl",
                        "diabetesInsipidusActive", "desmopressinPrescribed", "baselineReactionTimeMs", "simplifiedMode", "webOnly",
                        "loanDevice", "consentVersion", "consentDate"]
    /// Every field the form posts (what is shown again when it is refused).
    static var names: [String] { texts + dates + numbers.map(\.name) + choices + flags + lists }

    func render() -> HTML {
        let f = fields
        let risk = rules.riskModel
        func codes(_ points: [String: Int], _ word: (String) -> String) -> [(value: String, label: String)] {
            points.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { (value: $0.key, label: word($0.key)) }
        }
        let vocabulary = t.vocabulary
        func number(_ name: String) -> HTML {
            let mode = Self.numbers.first { $0.name == name }?.mode ?? "decimal"
            return f.input(name, t.profileLabel(name), inputmode: mode, required: ["age", "bmi", "baselineWeightKg"].contains(name))
        }
        let studyId: HTML = enrolment
            ? f.input("studyId", t.profileLabel("studyId"), required: true, hint: t.s("Letters, digits, _ and -", "Buchstaben, Ziffern, _ und -"),
                      extra: " autocomplete=\"off\" maxlength=\"64\"")
            : HTML()
        return """
            <fieldset class="group"><legend>\(t.s("Patient", "Patient"))</legend>\(studyId)
            \(f.input("surgeryDate", t.profileLabel("surgeryDate"), type: "date", required: true))
            \(f.input("timeZone", t.profileLabel("timeZone"), required: true, extra: " autocomplete=\"off\""))
            \(number("age"))\(f.select("sex", t.profileLabel("sex"), ["female", "male"].map { ($0, t.sex($0)) }, blank: t.s("choose…", "bitte wählen…"), required: true))
            \(number("bmi"))\(number("baselineWeightKg"))\(f.checkbox("baselineIsPreOp", t.profileLabel("baselineIsPreOp")))</fieldset>
            <fieldset class="group"><legend>Kat A</legend>
            \(f.select("histology", t.profileLabel("histology"), codes(risk.histologyPoints, vocabulary.histology), blank: t.notEntered))
            \(f.checkbox("stalkDeviation", t.profileLabel("stalkDeviation")))
            \(f.checkboxes("riskMedications", t.profileLabel("riskMedications"), codes(risk.medicationPoints, vocabulary.medication)))</fieldset>
            <fieldset class="group"><legend>Kat B</legend>
            <p class="muted">\(t.s("Leave empty what is not known yet; Kat B counts as pending until it is entered.",
                                   "Leer lassen, was noch nicht bekannt ist; Kat B gilt bis zur Eingabe als ausstehend."))</p>
            \(number("katB.podSodium"))\(number("katB.preopSodium"))\(number("katB.operationMinutes"))
            \(f.select("katB.csfLeak", t.profileLabel("katB.csfLeak"), [("true", t.yes), ("false", t.no)], blank: t.notEntered))</fieldset>
            <fieldset class="group"><legend>Kat C</legend>
            \(f.select("katC.postopNausea", t.profileLabel("katC.postopNausea"), codes(risk.postopNauseaPoints, vocabulary.postopNausea), blank: t.notEntered))
            \(f.checkbox("katC.diabetesInsipidus", t.profileLabel("katC.diabetesInsipidus")))\(f.checkbox("katC.desmopressin", t.profileLabel("katC.desmopressin")))
            \(f.checkbox("katC.newCortisolDeficiency", t.profileLabel("katC.newCortisolDeficiency")))</fieldset>
            <fieldset class="group"><legend>\(t.s("Care and app", "Versorgung und App"))</legend>
            \(number("fluidLimitMl"))\(f.checkbox("diabetesInsipidusActive", t.profileLabel("diabetesInsipidusActive")))
            \(f.checkbox("desmopressinPrescribed", t.profileLabel("desmopressinPrescribed")))\(number("baselineReactionTimeMs"))
            \(f.checkbox("simplifiedMode", t.profileLabel("simplifiedMode")))\(f.checkbox("webOnly", t.profileLabel("webOnly")))
            \(f.checkbox("loanDevice", t.profileLabel("loanDevice")))</fieldset>
            <fieldset class="group"><legend>\(t.s("Consent", "Einwilligung"))</legend>
            \(f.input("consentVersion", t.profileLabel("consentVersion"), extra: " maxlength=\"32\" autocomplete=\"off\""))
            \(f.input("consentDate", t.profileLabel("consentDate"), type: "date"))</fieldset>
            """
    }

    /// The posted form as the API's profile body: blank fields are null (absent for the
    /// decoder; a `PATCH` clears them), boxes true or false, Kat B null when all of it is blank.
    static func body(_ form: HTTPQueryParameters, enrolment: Bool) -> JSONObject {
        var o = JSONObject()
        func raw(_ name: String) -> String? {
            guard let v = form[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !v.isEmpty else { return nil }
            return v
        }
        for name in texts + dates where name != "studyId" || enrolment {
            FormCheck.set(&o, path: name, to: raw(name).map(JSONValue.string) ?? .null)
        }
        for (name, _) in numbers { FormCheck.set(&o, path: name, to: raw(name).map(FormInput.number) ?? .null) }
        for name in ["sex", "histology", "katC.postopNausea"] { FormCheck.set(&o, path: name, to: raw(name).map(JSONValue.string) ?? .null) }
        FormCheck.set(&o, path: "katB.csfLeak", to: raw("katB.csfLeak").map { $0 == "true" ? .bool(true) : $0 == "false" ? .bool(false) : .string($0) } ?? .null)
        for name in flags { FormCheck.set(&o, path: name, to: .bool(raw(name) != nil)) }
        o["riskMedications"] = .array(form.values(for: "riskMedications").map(JSONValue.string))
        if case .object(let katB)? = o["katB"], katB.members.allSatisfy({ $0.value == .null }) { o["katB"] = .null }
        return o
    }

    /// The form's values as stored (to edit them).
    static func initial(_ p: PatientProfile, separator: String) -> [String: String] {
        func n(_ v: Double?) -> String { v.map { ChartNumber.format($0, decimals: 2, trimZeros: true, separator: separator) } ?? "" }
        func flag(_ b: Bool) -> String { b ? "1" : "" }
        var v: [String: String] = [
            "studyId": p.studyId, "surgeryDate": p.surgeryDate.description, "timeZone": p.timeZone, "age": String(p.age),
            "sex": p.sex.rawValue, "bmi": n(p.bmi), "baselineWeightKg": n(p.baselineWeightKg), "histology": p.histology ?? "",
            "stalkDeviation": flag(p.stalkDeviation), "riskMedications": p.riskMedications.joined(separator: ","),
            "katB.podSodium": n(p.katB?.podSodium), "katB.preopSodium": n(p.katB?.preopSodium),
            "katB.operationMinutes": p.katB?.operationMinutes.map(String.init) ?? "",
            "katB.csfLeak": p.katB?.csfLeak.map { $0 ? "true" : "false" } ?? "",
            "katC.postopNausea": p.katC.postopNausea ?? "", "fluidLimitMl": n(p.fluidLimitMl),
            "baselineReactionTimeMs": n(p.baselineReactionTimeMs), "consentVersion": p.consentVersion ?? "",
            "consentDate": p.consentDate?.description ?? "",
        ]
        let flags: [(String, Bool)] = [
            ("katC.diabetesInsipidus", p.katC.diabetesInsipidus), ("katC.desmopressin", p.katC.desmopressin),
            ("katC.newCortisolDeficiency", p.katC.newCortisolDeficiency), ("diabetesInsipidusActive", p.diabetesInsipidusActive),
            ("desmopressinPrescribed", p.desmopressinPrescribed), ("simplifiedMode", p.simplifiedMode), ("webOnly", p.webOnly),
            ("loanDevice", p.loanDevice), ("baselineIsPreOp", p.baselineIsPreOp),
        ]
        for (name, b) in flags { v[name] = flag(b) }
        return v
    }

    /// What was posted, to show again (the medications joined with commas).
    static func echo(_ form: HTTPQueryParameters) -> [String: String] {
        var v = FormInput.echo(form, names.filter { $0 != "riskMedications" })
        v["riskMedications"] = form.values(for: "riskMedications").joined(separator: ",")
        return v
    }

    /// Values the profile decoder accepts for the required fields, standing in for a refused
    /// one so the decoder goes on to the next field (`FormCheck`); never stored.
    static let standIns = JSONObject([
        ("studyId", "X"), ("surgeryDate", "2026-01-01"), ("timeZone", "UTC"), ("age", 50), ("sex", "female"), ("bmi", 25),
        ("baselineWeightKg", 70),
    ])
}
