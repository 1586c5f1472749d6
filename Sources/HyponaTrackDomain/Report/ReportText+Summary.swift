import HyponaTrackCore

/// The words of page 1's summary and baseline, of the risk model's items (docs/clinical-rules.md
/// §1, each with its rule from the rules in force), of the symptom table and of the reviewer's line.
extension ReportText {
    // Summary
    var summary: String { s("Summary", "Zusammenfassung") }
    var currentLevel: String { s("Current level", "Aktuelle Stufe") }
    var unacknowledgedAlerts: String { s("Unacknowledged alerts", "Unbestätigte Alarme") }
    var firstRedDay: String { s("First red day", "Erster roter Tag") }
    var lastLabSodium: String { s("Last lab sodium", "Letztes Labornatrium") }
    var lastContact: String { s("Last contact", "Letzter Kontakt") }
    var none: String { s("none", "keine") }
    var notEvaluatedYet: String { s("no evaluated day yet", "noch kein bewerteter Tag") }
    func since(_ level: String, _ day: String) -> String { s("\(level) since \(day)", "\(level) seit \(day)") }
    func ofAlert(_ id: Int64) -> String { s("alert #\(id)", "Alarm #\(id)") }
    var newDataSinceAcknowledged: String { s("new data since acknowledged", "neue Daten seit Bestätigung") }
    var sodiumUnit: String { s("mmol/L", "mmol/l") }

    // Baseline
    var baseline: String { s("Baseline", "Ausgangsdaten") }
    var age: String { s("Age", "Alter") }
    func years(_ n: Int) -> String { s("\(n) years", "\(n) Jahre") }
    var sex: String { s("Sex", "Geschlecht") }
    func sex(_ sex: PatientProfile.Sex) -> String {
        switch sex {
        case .female: return s("female", "weiblich")
        case .male: return s("male", "männlich")
        }
    }
    var histology: String { s("Histology", "Histologie") }
    var baselineWeight: String { s("Baseline weight", "Ausgangsgewicht") }
    var preOp: String { s("measured before surgery", "vor der OP gemessen") }
    var fluidLimit: String { s("Fluid limit", "Trinkmengenlimit") }
    var perDay: String { s("mL per day", "ml pro Tag") }
    var noLimit: String { s("no limit set", "kein Limit festgelegt") }
    var desmopressin: String { s("Desmopressin", "Desmopressin") }
    func desmopressin(prescribed: Bool, diabetesInsipidus: Bool) -> String {
        let p = prescribed ? s("prescribed", "verordnet") : s("not prescribed", "nicht verordnet")
        return diabetesInsipidus ? p + s(", diabetes insipidus active", ", Diabetes insipidus aktiv") : p
    }
    var consent: String { s("Consent", "Einwilligung") }
    func consent(version: String?, date: String?) -> String {
        switch (version, date) {
        case (nil, nil): return s("not recorded", "nicht erfasst")
        case (let v?, let d?): return s("form \(v), signed \(d)", "Formular \(v), unterschrieben am \(d)")
        case (let v?, nil): return s("form \(v)", "Formular \(v)")
        case (nil, let d?): return s("signed \(d)", "unterschrieben am \(d)")
        }
    }
    var notEntered: String { s("not entered", "nicht erfasst") }
    var yes: String { s("yes", "ja") }
    var no: String { s("no", "nein") }
    func yesNo(_ b: Bool?) -> String { b.map { $0 ? yes : no } ?? notEntered }

    // Risk factors table
    var katColumn: String { s("Kat", "Kat") }
    var factorColumn: String { s("Factor (rule)", "Faktor (Regel)") }
    var valueColumn: String { s("Value", "Wert") }
    var pointsColumn: String { s("Points", "Punkte") }
    func pointsBeforeCap(_ n: Int) -> String { s("\(n) points before the cap", "\(n) Punkte vor der Obergrenze") }

    func histology(_ code: String?) -> String { code.map(Vocabulary(language: language).histology) ?? notEntered }
    func medication(_ code: String) -> String { Vocabulary(language: language).medication(code) }
    func postopNausea(_ code: String?) -> String { code.map(Vocabulary(language: language).postopNausea) ?? notEntered }

    func emergencySymptom(_ code: String) -> String {
        switch code {
        case "seizure": return s("seizure", "Krampfanfall")
        case "collapse": return s("collapse", "Kollaps")
        case "drowsiness": return s("drowsiness", "Benommenheit")
        default: return code
        }
    }

    // Symptom table
    var symptoms: String { s("Symptoms by day", "Symptome je Tag") }
    var symptomLegend: String {
        s("Items 0–3 (0 = none, 3 = severe): N nausea, H headache, F fatigue, C confusion, M muscle cramps. VAS 0–10 (10 = best well-being). Days without symptom entries, vomiting or emergency symptoms are left out.",
          "Items 0–3 (0 = keine, 3 = stark): Ü Übelkeit, K Kopfschmerzen, M Müdigkeit, V Verwirrtheit, Kr Muskelkrämpfe. VAS 0–10 (10 = bestes Befinden). Tage ohne Symptomeinträge, Erbrechen oder Notfallsymptome fehlen.")
    }
    var noSymptoms: String { s("No symptom entries.", "Keine Symptomeinträge.") }
    var checkColumn: String { s("Check", "Check") }
    var itemColumns: [String] { language == .de ? ["Ü", "K", "M", "V", "Kr"] : ["N", "H", "F", "C", "M"] }
    var vasColumn: String { s("VAS", "VAS") }
    var vomitingColumn: String { s("Vomiting (episodes)", "Erbrechen (Episoden)") }
    var emergencyColumn: String { s("Emergency symptoms", "Notfallsymptome") }
    func slot(_ slot: SymptomEntry.Slot) -> String {
        switch slot {
        case .morning: return s("morning", "morgens")
        case .evening: return s("evening", "abends")
        }
    }

    // Alert notes
    var noteLabel: String { s("Note", "Notiz") }

    /// The signature line closing the report.
    var reviewedBy: String {
        s("Reviewed by ________________________________ on ________________",
          "Geprüft von ________________________________ am ________________")
    }
}

extension ReportText {
    /// A risk-model item with its rule from the rules in force ("Age ≥ 60", "BMI < 26");
    /// `number` writes a number in the language's style.
    func factor(_ item: RiskFactor.Item, rules r: RiskModelRules, number: (Double) -> String) -> String {
        switch item {
        case .histology: return s("Histology", "Histologie")
        case .stalkDeviation: return s("Pituitary stalk deviation on pre-op MRI", "Hypophysenstiel-Deviation im präop. MRT")
        case .riskMedications: return s("Risk medications (sum at most \(r.medicationCap))", "Risikomedikamente (Summe höchstens \(r.medicationCap))")
        case .age: return s("Age ≥ \(number(r.age.value))", "Alter ≥ \(number(r.age.value))")
        case .sex: return s("Sex", "Geschlecht")
        case .bmi: return s("BMI < \(number(r.bmi.value)) kg/m²", "BMI < \(number(r.bmi.value)) kg/m²")
        case .podSodium:
            let bands = r.podSodiumBands.map { "< \(number($0.below)): \($0.points)" }.joined(separator: ", ")
            return s("Lowest sodium POD 1–2 (\(bands); a fall ≥ \(number(r.preopDrop.value)) from pre-op: at least \(r.preopDrop.points))",
                     "Niedrigstes Natrium POD 1–2 (\(bands); Abfall ≥ \(number(r.preopDrop.value)) zum präop. Wert: mindestens \(r.preopDrop.points))")
        case .csfLeak: return s("Intra-operative CSF leak", "Intraoperatives Liquorleck")
        case .operationMinutes: return s("Operation time > \(number(r.operationMinutes.value)) min", "OP-Dauer > \(number(r.operationMinutes.value)) min")
        case .postopNausea: return s("Post-op nausea", "Postoperative Übelkeit")
        case .diabetesInsipidusOrDesmopressin: return s("Diabetes insipidus or desmopressin", "Diabetes insipidus oder Desmopressin")
        case .newCortisolDeficiency: return s("New cortisol deficiency", "Neuer Kortisolmangel")
        }
    }

    /// What the profile says about the item.
    func factorValue(_ item: RiskFactor.Item, rules r: RiskModelRules, number: (Double, Int) -> String) -> String {
        switch item {
        case .histology(let code): return histology(code)
        case .stalkDeviation(let b): return yesNo(b)
        case .riskMedications(let codes, let uncapped):
            guard !codes.isEmpty else { return none }
            let list = codes.map(medication).joined(separator: ", ")
            return uncapped > r.medicationCap ? "\(list) (\(pointsBeforeCap(uncapped)))" : list
        case .age(let n): return years(n)
        case .sex(let x): return sex(x)
        case .bmi(let v): return "\(number(v, 1)) kg/m²"
        case .podSodium(let na, let preop):
            guard let na else { return notEntered }
            let pre = preop.map { s(" (pre-op \(number($0, 0)))", " (präop. \(number($0, 0)))") } ?? ""
            return "\(number(na, 0)) \(sodiumUnit)" + pre
        case .csfLeak(let b): return yesNo(b)
        case .operationMinutes(let m): return m.map { "\($0) min" } ?? notEntered
        case .postopNausea(let code): return postopNausea(code)
        case .diabetesInsipidusOrDesmopressin(let di, let desmo):
            var parts: [String] = []
            if di { parts.append("Diabetes insipidus") }
            if desmo { parts.append(s("desmopressin", "Desmopressin")) }
            return parts.isEmpty ? s("neither", "keines") : parts.joined(separator: ", ")
        case .newCortisolDeficiency(let b): return yesNo(b)
        }
    }
}
