import Foundation
import Testing
import HTJSON
@testable import HyponaTrackCore

/// The code lists staff and patients may use come from the rule files: emergency symptoms from
/// `thresholds.json` `emergencySymptoms` (validated at load), histology, medication and nausea
/// codes from `risk-model.json`, each in file order.
@Suite struct RuleCodeListTests {
    let validation = RulesValidationTests()

    @Test func theShippedListsAreTheRuleFilesCodesInFileOrder() {
        let rules = Fixtures.rules
        #expect(rules.thresholds.emergencySymptoms == ["seizure", "collapse", "drowsiness"])
        #expect(rules.riskModel.histologyCodes == ["craniopharyngioma", "cushing", "rathke_cleft_cyst", "macroadenoma",
                                                   "microadenoma", "other"])
        #expect(rules.riskModel.medicationCodes.first == "thiazide" && rules.riskModel.medicationCodes.count == 10)
        #expect(Set(rules.riskModel.medicationCodes) == Set(rules.riskModel.medicationPoints.keys))
        #expect(rules.riskModel.postopNauseaCodes == ["none", "antiemetic", "vomiting"])
    }

    @Test func emergencySymptomsAreRequiredValidatedAndDistinct() throws {
        let list = #""emergencySymptoms": ["seizure", "collapse", "drowsiness"],"#
        validation.expectRulesError(file: "thresholds.json", key: "emergencySymptoms",
                                    try validation.edited("thresholds.json", list, ""))
        validation.expectRulesError(file: "thresholds.json", key: "emergencySymptoms",
                                    try validation.edited("thresholds.json", list, #""emergencySymptoms": [],"#))
        validation.expectRulesError(file: "thresholds.json", key: "emergencySymptoms[1]",
                                    try validation.edited("thresholds.json", list, #""emergencySymptoms": ["seizure", "Collapse"],"#))
        validation.expectRulesError(file: "thresholds.json", key: "emergencySymptoms[2]",
                                    try validation.edited("thresholds.json", list, #""emergencySymptoms": ["seizure", "collapse", "seizure"],"#))
        validation.expectRulesError(file: "thresholds.json", key: "emergencySymptoms",
                                    try validation.edited("thresholds.json", list, #""emergencySymptoms": "seizure","#))
    }

    @Test func aDaySubmissionIsCheckedAgainstTheRuleSetsEmergencySymptoms() throws {
        var rules = Fixtures.rules
        rules.thresholds.emergencySymptoms = ["seizure", "fainting"]
        let date = LocalDate("2026-03-05")!
        let patch = try DayPatchDecoder.decode(["emergencySymptoms": ["fainting"]], date: date, rules: rules)
        #expect(patch.emergencySymptoms == ["fainting"])
        #expect(throws: FieldError.invalid("emergencySymptoms[0]", "\"collapse\" is not one of seizure, fainting",
                                           problem: .notOneOf(allowed: ["seizure", "fainting"]))) {
            try DayPatchDecoder.decode(["emergencySymptoms": ["collapse"]], date: date, rules: rules)
        }
        #expect(throws: FieldError.self) {
            try DayDecoder.decode(["date": "2026-03-05", "emergencySymptoms": ["seizure", "collapse"]], path: "days[0]", rules: rules)
        }
        let day = try DayDecoder.decode(["date": "2026-03-05", "emergencySymptoms": ["fainting"]], path: "days[0]", rules: rules)
        let e = EscalationEngine(rules: rules).evaluate(profile: Fixtures.profile(), days: [day], date: date)
        #expect(e.level == .red && e.reasonCodes == ["emergency_symptom"])
    }

    /// A profile stored under rules that knew its codes, against rules that renamed them: each
    /// code the risk engine would score 0 points is named with its table's key.
    @Test func aStoredCodeTheRulesNoLongerKnowIsNamedWithItsKey() {
        var rules = Fixtures.rules.riskModel
        #expect(rules.unknownCodes(in: Fixtures.profile { $0.riskMedications = ["thiazide"] }).isEmpty)
        rules.histologyPoints["microadenoma"] = nil
        rules.medicationPoints["thiazide"] = nil
        rules.postopNauseaPoints["none"] = nil
        let profile = Fixtures.profile { $0.riskMedications = ["thiazide", "opioid", "thiazide"] }
        #expect(rules.unknownCodes(in: profile) == [UnknownRuleCode(key: "katA.histology", code: "microadenoma"),
                                                    UnknownRuleCode(key: "katA.riskMedications.points", code: "thiazide"),
                                                    UnknownRuleCode(key: "katC.postopNausea", code: "none")])
    }
}

/// `consentVersion` and `consentDate` in the profile: format checks at the boundary, the same in
/// the API and in case files (the date against today and the surgery date is the server's check).
@Suite struct ConsentDecodingTests {
    func decode(_ extra: [(String, JSONValue)]) throws(FieldError) -> PatientProfile {
        var o = JSONObject([("studyId", "C-1"), ("surgeryDate", "2026-03-02"), ("timeZone", "Europe/Berlin"), ("age", 50),
                            ("sex", "male"), ("bmi", 27.0), ("baselineWeightKg", 80.0)])
        for (k, v) in extra { o[k] = v }
        return try ProfileDecoder.decode(.object(o), path: "profile", rules: Fixtures.rules)
    }

    @Test func consentIsOptionalAndKeptAsGiven() throws {
        let none = try decode([])
        #expect(none.consentVersion == nil && none.consentDate == nil)
        let given = try decode([("consentVersion", "ICF_v2.1-de"), ("consentDate", "2026-02-27")])
        #expect(given.consentVersion == "ICF_v2.1-de" && given.consentDate == LocalDate("2026-02-27"))
    }

    @Test func aMalformedConsentNamesItsField() {
        let bad: [(String, JSONValue)] = [
            ("consentVersion", ""), ("consentVersion", .string(String(repeating: "1", count: 33))), ("consentVersion", "v 2"),
            ("consentVersion", "v2/de"), ("consentVersion", 2),
            ("consentDate", "2026-2-27"), ("consentDate", "27.02.2026"), ("consentDate", "2026-02-30"), ("consentDate", true),
        ]
        for (key, value) in bad {
            do {
                _ = try decode([(key, value)])
                Issue.record("\(key) \(value) accepted")
            } catch {
                #expect(error.field == "profile.\(key)" && error.code == .invalidValue, "\(key) \(value): \(error)")
            }
        }
    }
}
