import Foundation
import HTJSON
import HyponaTrackCore
import HyponaTrackKit

/// The repository's own files, found from this source file's path.
enum Repo {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let config = root.appendingPathComponent("config")
    static let vignettes = root.appendingPathComponent("Tests/Fixtures/public-vignettes.json")
}

/// The shipped rule set, loaded once.
enum Fixtures {
    static let rules: RuleSet = try! RulesLoader.load(directory: Repo.config)

    static func date(_ s: String) -> LocalDate { LocalDate(s)! }
    static func time(_ s: String) -> Timestamp { Timestamp(s)! }

    /// A low-risk profile (score 1: female) operated on 2026-03-02 in Berlin, baseline 70 kg,
    /// fluid limit 1500 mL, reaction-time baseline 600 ms. Tests change what they need.
    static func profile(_ change: (inout PatientProfile) -> Void = { _ in }) -> PatientProfile {
        var p = PatientProfile(studyId: "T01", surgeryDate: date("2026-03-02"), timeZone: "Europe/Berlin", age: 45,
                               sex: .female, bmi: 28, baselineWeightKg: 70, histology: "microadenoma",
                               katB: KatB(podSodium: 140, operationMinutes: 120, csfLeak: false),
                               katC: KatC(postopNausea: "none"), fluidLimitMl: 1500, baselineReactionTimeMs: 600)
        change(&p)
        return p
    }

    /// A day with nothing in it.
    static func day(_ date: String, _ change: (inout DailyEntry) -> Void = { _ in }) -> DailyEntry {
        var d = DailyEntry(date: LocalDate(date)!)
        change(&d)
        return d
    }

    static func symptoms(_ date: String, slot: SymptomEntry.Slot = .morning, at clock: String = "08:00", nausea: Int = 0,
                         headache: Int = 0, fatigue: Int = 0, confusion: Int = 0, cramps: Int = 0, vas: Int = 10,
                         id: String = "s") -> SymptomEntry {
        SymptomEntry(id: id, time: time("\(date)T\(clock):00+01:00"), slot: slot, nausea: nausea, headache: headache,
                     fatigue: fatigue, confusion: confusion, muscleCramps: cramps, vas: vas)
    }

    static func lab(_ date: String, _ clock: String, _ value: Double) -> LabSodium {
        LabSodium(id: nil, time: time("\(date)T\(clock):00+01:00"), value: value)
    }

    static func reaction(_ date: String, _ clock: String, medianMs: Double, id: String) -> ReactionTest {
        ReactionTest(id: id, time: time("\(date)T\(clock):00+01:00"), medianMs: medianMs, meanMs: medianMs, errors: 0)
    }
}
