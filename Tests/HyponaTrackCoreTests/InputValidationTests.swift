import Foundation
import Testing
import HTJSON
@testable import HyponaTrackCore

/// Input validation at the model boundary: out-of-range or unknown values are errors naming the
/// field as a JSON path, never clamped or ignored.
@Suite struct InputValidationTests {
    /// PV01 from the public vignettes as a mutable JSON object.
    func validCase() throws -> JSONObject {
        let all = try JSONParser.parse(Array(try Data(contentsOf: Repo.vignettes)))
        guard case .array(let cases) = all, case .object(let first) = cases[0] else { throw FieldError.invalid(nil, "fixture") }
        return first
    }

    func decode(_ object: JSONObject) throws(FieldError) -> EvaluationCase {
        try EvaluationCase.decode(.object(object), path: "", rules: Fixtures.rules)
    }

    func expectError(_ field: String, code: FieldError.Code = .invalidValue, _ change: (inout JSONObject) -> Void) throws {
        var object = try validCase()
        change(&object)
        do {
            _ = try decode(object)
            Issue.record("expected an error for \(field)")
        } catch {
            #expect(error.field == field)
            #expect(error.code == code)
        }
    }

    /// Edits `days[0]` of the case.
    func editDay(_ object: inout JSONObject, _ change: (inout JSONObject) -> Void) {
        guard case .array(var days)? = object["days"], case .object(var day) = days[0] else { return }
        change(&day)
        days[0] = .object(day)
        object["days"] = .array(days)
    }

    func editSymptom(_ object: inout JSONObject, _ key: String, _ value: JSONValue) {
        editDay(&object) { day in
            guard case .array(var items)? = day["symptoms"], case .object(var item) = items[0] else { return }
            item[key] = value
            items[0] = .object(item)
            day["symptoms"] = .array(items)
        }
    }

    func editProfile(_ object: inout JSONObject, _ key: String, _ value: JSONValue?) {
        guard case .object(var profile)? = object["profile"] else { return }
        profile[key] = value
        object["profile"] = .object(profile)
    }

    @Test func theUnchangedFixtureDecodes() throws {
        let c = try decode(try validCase())
        #expect(c.id == "PV01" && c.days.count == 1)
    }

    @Test func aSymptomItemOfFourIsRefused() throws {
        try expectError("days[0].symptoms[0].nausea") { editSymptom(&$0, "nausea", 4) }
    }

    @Test func aVASOfElevenIsRefused() throws {
        try expectError("days[0].symptoms[0].vas") { editSymptom(&$0, "vas", 11) }
    }

    @Test func aFractionalSymptomItemIsRefused() throws {
        try expectError("days[0].symptoms[0].headache") { editSymptom(&$0, "headache", 1.5) }
    }

    @Test func everySymptomItemIsRequired() throws {
        try expectError("days[0].symptoms[0].fatigue") { editSymptom(&$0, "fatigue", nil) }
    }

    @Test func negativeOrAbsurdWeightsAreRefused() throws {
        try expectError("days[0].weightMorningKg") { editDay(&$0) { $0["weightMorningKg"] = -70 } }
        try expectError("days[0].weightMorningKg") { editDay(&$0) { $0["weightMorningKg"] = 800 } }
        try expectError("profile.baselineWeightKg") { editProfile(&$0, "baselineWeightKg", 24.9) }
    }

    @Test func urineSGOutsideItsRangeIsRefused() throws {
        try expectError("days[0].urineSG") { editDay(&$0) { $0["urineSG"] = 1.041 } }
        try expectError("days[0].urineSG") { editDay(&$0) { $0["urineSG"] = 0.999 } }
    }

    @Test func unknownHistologyAndMedicationCodesAreRefused() throws {
        try expectError("profile.histology") { editProfile(&$0, "histology", "glioma") }
        try expectError("profile.riskMedications[1]") { editProfile(&$0, "riskMedications", ["opioid", "aspirin"]) }
    }

    @Test func badDatesAreRefused() throws {
        try expectError("evaluateDate") { $0["evaluateDate"] = "2026-02-30" }
        try expectError("profile.surgeryDate") { editProfile(&$0, "surgeryDate", "03/02/2026") }
        try expectError("days[0].date") { editDay(&$0) { $0["date"] = "2026-3-5" } }
    }

    @Test func aTimeWithoutAnOffsetIsRefused() throws {
        try expectError("days[0].symptoms[0].time") { editSymptom(&$0, "time", "2026-03-05T08:00:00") }
    }

    @Test func aTimeMoreThanADayFromItsDateIsRefused() throws {
        try expectError("days[0].symptoms[0].time") { editSymptom(&$0, "time", "2026-03-07T08:00:00+01:00") }
    }

    @Test func unknownFieldsAreRefusedWithTheirPath() throws {
        try expectError("days[0].weightMorning", code: .unknownField) { editDay(&$0) { $0["weightMorning"] = 70 } }
        try expectError("profile.katB.podNa", code: .unknownField) {
            guard case .object(var profile)? = $0["profile"], case .object(var katB)? = profile["katB"] else { return }
            katB["podNa"] = 130
            profile["katB"] = .object(katB)
            $0["profile"] = .object(profile)
        }
    }

    @Test func wrongTypesAreRefused() throws {
        try expectError("profile.age") { editProfile(&$0, "age", "45") }
        try expectError("profile.stalkDeviation") { editProfile(&$0, "stalkDeviation", 1) }
    }

    @Test func anUnknownTimeZoneIsRefused() throws {
        try expectError("profile.timeZone") { editProfile(&$0, "timeZone", "Mars/Olympus") }
    }

    @Test func anUnknownEmergencySymptomIsRefused() throws {
        try expectError("days[0].emergencySymptoms[0]") { editDay(&$0) { $0["emergencySymptoms"] = ["fever"] } }
    }

    @Test func duplicateItemIdsInADayAreRefused() throws {
        try expectError("days[0].symptoms[1].id") {
            editDay(&$0) { day in
                guard case .array(let items)? = day["symptoms"] else { return }
                day["symptoms"] = .array(items + items)
            }
        }
    }

    @Test func theSameDateTwiceIsRefused() throws {
        try expectError("days[1].date") {
            guard case .array(let days)? = $0["days"] else { return }
            $0["days"] = .array(days + days)
        }
    }

    @Test func derivedValuesAreNotAccepted() throws {
        try expectError("days[0].morningCheckComplete", code: .notAllowed) { editDay(&$0) { $0["morningCheckComplete"] = true } }
    }

    @Test func thePatientAPIRefusesLabSodiumAndADateInTheBody() throws {
        let body: JSONValue = ["labSodium": []]
        #expect(throws: FieldError(.notAllowed, field: "labSodium", "lab sodium values are entered by staff")) {
            try DayDecoder.decode(body, path: "", rules: Fixtures.rules, options: .init(date: LocalDate("2026-03-05"), allowLabSodium: false))
        }
        #expect(throws: FieldError(.notAllowed, field: "date", "the date is given by the URL")) {
            try DayDecoder.decode(["date": "2026-03-05"], path: "", rules: Fixtures.rules, options: .init(date: LocalDate("2026-03-05"), allowLabSodium: false))
        }
    }

    @Test func anArrayOfCasesReportsTheFailingIndex() throws {
        var bad = try validCase()
        editSymptom(&bad, "vas", 11)
        do {
            _ = try EvaluationCase.decodeAll(.array([.object(try validCase()), .object(bad)]), rules: Fixtures.rules)
            Issue.record("expected an error")
        } catch let error as FieldError {
            #expect(error.field == "[1].days[0].symptoms[0].vas")
        }
    }
}
