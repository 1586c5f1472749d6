import Testing
import HTJSON
@testable import HyponaTrackCore

/// docs/product.md merge rules for `PUT /v1/me/days/{date}`, on the pure merge.
@Suite struct DayPatchTests {
    let date = LocalDate("2026-03-05")!

    func patch(_ json: JSONValue) throws -> DayPatch { try DayPatchDecoder.decode(json, date: date, rules: Fixtures.rules) }

    @Test func presentSetsNullClearsAbsentKeeps() throws {
        let before = Fixtures.day("2026-03-05") { $0.weightMorningKg = 70; $0.fluidIntakeMl = 900; $0.urineSG = 1.010 }
        let after = try patch(["weightMorningKg": 71, "fluidIntakeMl": nil]).apply(to: before)
        #expect(after.weightMorningKg == 71)
        #expect(after.fluidIntakeMl == nil)
        #expect(after.urineSG == 1.010)
    }

    @Test func vomitingEpisodesAreTheDaysTotalNotAdded() throws {
        let before = Fixtures.day("2026-03-05") { $0.vomitingEpisodes = 2 }
        #expect(try patch(["vomitingEpisodes": 1]).apply(to: before).vomitingEpisodes == 1)
    }

    @Test func emergencySymptomsOnlyGrowFromThePatientSide() throws {
        let before = Fixtures.day("2026-03-05") { $0.emergencySymptoms = ["seizure"] }
        #expect(try patch(["emergencySymptoms": []]).apply(to: before).emergencySymptoms == ["seizure"])
        #expect(try patch(["emergencySymptoms": ["collapse"]]).apply(to: before).emergencySymptoms == ["seizure", "collapse"])
    }

    @Test func listItemsAreUpsertedByIdSoARetryNeverDuplicates() throws {
        let s: JSONValue = ["id": "s1", "time": "2026-03-05T08:00:00+01:00", "slot": "morning", "nausea": 0, "headache": 1,
                            "fatigue": 0, "confusion": 0, "muscleCramps": 0, "vas": 8]
        let p = try patch(["symptoms": [s]])
        let once = p.apply(to: DailyEntry(date: date))
        let twice = p.apply(to: once)
        #expect(twice.symptoms.count == 1)
        guard case .object(var changed) = s else { return }
        changed["headache"] = 3
        let corrected = try patch(["symptoms": [.object(changed)]]).apply(to: twice)
        #expect(corrected.symptoms.count == 1 && corrected.symptoms[0].headache == 3)
    }

    @Test func anItemDeletedByStaffIsNotBroughtBackByARetry() throws {
        let s: JSONValue = ["id": "gone", "time": "2026-03-05T08:00:00+01:00", "slot": "morning", "nausea": 0, "headache": 0,
                            "fatigue": 0, "confusion": 0, "muscleCramps": 0, "vas": 8]
        let merged = try patch(["symptoms": [s]]).apply(to: DailyEntry(date: date), blockedIds: ["gone"])
        #expect(merged.symptoms.isEmpty)
    }

    @Test func theBodyMayNotCarryStaffOrDerivedFields() {
        #expect(throws: FieldError.self) { try patch(["labSodium": []]) }
        #expect(throws: FieldError.self) { try patch(["date": "2026-03-05"]) }
        #expect(throws: FieldError.self) { try patch(["level": "green"]) }
    }
}
