import Foundation
import Charts
import HyponaTrackCore
import HyponaTrackKit
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The shipped rules and a hand-made patient for the trend-chart tests.
enum TrendChartFixtures {
    static let rules: RuleSet = try! RulesLoader.load(directory: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config"))
    static let engine = EscalationEngine(rules: rules)
    static let surgery = LocalDate("2026-03-02")!

    /// High risk by score (risk-model.json: cushing 2 + stalk deviation 2 + female 1 + BMI < 26 1 +
    /// age ≥ 60 1 = 7 ≥ highFrom 7), so fRisk = 0.8 and f = 0.72 on POD 5–9 (window factor 0.9);
    /// not a craniopharyngioma, so monitoring stays POD 1–14. Baseline 70 kg, limit 1500 mL, RT 600 ms.
    static func highRisk(_ change: (inout PatientProfile) -> Void = { _ in }) -> PatientProfile {
        var p = PatientProfile(studyId: "C<01>&\"x'", surgeryDate: surgery, timeZone: "Europe/Berlin", age: 64, sex: .female,
                               bmi: 24, baselineWeightKg: 70, histology: "cushing", stalkDeviation: true,
                               katB: KatB(podSodium: 140, operationMinutes: 120, csfLeak: false), katC: KatC(postopNausea: "none"),
                               fluidLimitMl: 1500, baselineReactionTimeMs: 600)
        change(&p)
        return p
    }

    static func window(_ profile: PatientProfile) -> MonitoringWindow {
        MonitoringWindow(profile: profile, rules: rules.reminders)
    }

    static func date(pod: Int) -> LocalDate { surgery.adding(days: pod) }

    static func time(pod: Int, _ clock: String) -> Timestamp { Timestamp("\(date(pod: pod))T\(clock):00+01:00")! }

    static func symptoms(pod: Int, nausea: Int = 0, headache: Int = 0, fatigue: Int = 0, vas: Int = 10) -> SymptomEntry {
        SymptomEntry(id: "s\(pod)", time: time(pod: pod, "08:00"), slot: .morning, nausea: nausea, headache: headache,
                     fatigue: fatigue, confusion: 0, muscleCramps: 0, vas: vas)
    }

    /// Stored evaluations as the server would keep them, computed by the real engine.
    static func evaluations(_ profile: PatientProfile, _ days: [DailyEntry]) -> [LocalDate: StoredEvaluation] {
        var out: [LocalDate: StoredEvaluation] = [:]
        for day in days {
            let e = engine.evaluate(profile: profile, days: days, date: day.date)
            out[day.date] = StoredEvaluation(id: 1, date: e.date, pod: e.pod, level: e.level, reasons: e.reasons.map(StoredReason.init),
                                             riskScore: e.risk.riskScore, riskClass: e.risk.riskClass.rawValue, factor: e.factor,
                                             rulesVersion: e.rulesVersion, cause: "submission", evaluatedAt: 0)
        }
        return out
    }

    static func charts(_ profile: PatientProfile, _ days: [DailyEntry], axis: TrendChartBuilder.DayAxis = .pod,
                       language: Language = .en) -> [Chart] {
        TrendChartBuilder(engine: engine).charts(profile: profile, days: days, evaluations: evaluations(profile, days),
                                                 window: window(profile), axis: axis, language: language)
    }

    /// A demo-like fortnight: quiet start, a gap on POD 3, weight and fluid creeping up into the
    /// critical window, a yellow symptom day, a falling sodium on POD 6–7 and slow reactions on POD 7.
    static func demoDays() -> [DailyEntry] {
        func day(_ pod: Int, kg: Double, ml: Double, sg: Double, _ change: (inout DailyEntry) -> Void = { _ in }) -> DailyEntry {
            var d = DailyEntry(date: date(pod: pod), weightMorningKg: kg, fluidIntakeMl: ml, urineSG: sg,
                               symptoms: [symptoms(pod: pod, fatigue: 1, vas: 8)])
            change(&d)
            return d
        }
        return [
            day(1, kg: 70.1, ml: 1400, sg: 1.012),
            day(2, kg: 70.0, ml: 1450, sg: 1.011) { $0.labSodium = [LabSodium(time: time(pod: 2, "07:30"), value: 139)] },
            day(4, kg: 70.4, ml: 1600, sg: 1.014),
            day(5, kg: 70.6, ml: 1650, sg: 1.016) { $0.reactionTests = [reaction(5, "10:00", 630)] },
            day(6, kg: 70.9, ml: 1760, sg: 1.019) {
                $0.symptoms = [symptoms(pod: 6, nausea: 2, headache: 1, fatigue: 1, vas: 6)]
                $0.labSodium = [LabSodium(time: time(pod: 6, "08:10"), value: 136), LabSodium(time: time(pod: 6, "16:40"), value: 134)]
            },
            day(7, kg: 71.3, ml: 1800, sg: 1.021) {
                $0.labSodium = [LabSodium(time: time(pod: 7, "09:00"), value: 131)]
                $0.reactionTests = [reaction(7, "10:00", 720), reaction(7, "10:30", 730)]
            },
            day(8, kg: 70.8, ml: 1300, sg: 1.015) { $0.labSodium = [LabSodium(time: time(pod: 8, "09:00"), value: 135)] },
            day(9, kg: 70.5, ml: 1350, sg: 1.013),
        ]
    }

    static func reaction(_ pod: Int, _ clock: String, _ ms: Double) -> ReactionTest {
        ReactionTest(id: "r\(pod)\(clock)", time: time(pod: pod, clock), medianMs: ms, meanMs: ms, errors: 0)
    }
}
