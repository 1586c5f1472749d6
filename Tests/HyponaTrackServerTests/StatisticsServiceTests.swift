import Foundation
import Testing
import HTJSON
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// `StatisticsService` over the real services, alerting and scheduler on a settable clock
/// (Support/Simulation.swift): a patient lived day by day, the figures worked out by hand.
@Suite struct StatisticsServiceTests {
    /// Surgery 2026-03-02 (Berlin, no DST change near): monitoring 03-03 … 03-16; activated
    /// 03-04; every task done on 03-04, the morning's five on 03-05, nothing on 03-06 and 03-07
    /// (POD 5: at 21:00 a yellow missing check-in, at midnight a red no_data_2d), a full morning
    /// on 03-08, which is today (12:00).
    @Test func aLivedCourseGivesTheFiguresWorkedOutByHand() throws {
        let surgery = "2026-03-02"
        let sim = try Simulation(start: Berlin.at("2026-03-04", "09:00"))
        let code = try sim.enroll("STAT-1", surgery: surgery)
        let patient = try sim.activate("STAT-1", code: code)
        try sim.submit(patient, "2026-03-04", sim.fullMorning("2026-03-04", "09:00"))
        try sim.at(Berlin.at("2026-03-04", "20:30")) { try sim.submit(patient, "2026-03-04", sim.fullEvening("2026-03-04")) }
        try sim.at(Berlin.at("2026-03-05", "08:45")) { try sim.submit(patient, "2026-03-05", sim.fullMorning("2026-03-05")) }
        try sim.run(to: Berlin.at("2026-03-07", "21:00"))
        let missing = try #require(try sim.alerts().first { $0.kind == "missing_checkin" })
        #expect(missing.openedAt == Berlin.ms(Berlin.at("2026-03-07", "21:00")))
        try sim.at(Berlin.at("2026-03-07", "21:12")) { try sim.acknowledge(missing.id) }       // 12 min
        try sim.run(to: Berlin.at("2026-03-08", "00:00"))
        let silent = try #require(try sim.alerts().first { $0.kind == "no_data_2d" })
        #expect(silent.openedAt == Berlin.ms(Berlin.at("2026-03-08", "00:00")))
        try sim.at(Berlin.at("2026-03-08", "00:30")) { try sim.acknowledge(silent.id) }        // 30 min
        try sim.at(Berlin.at("2026-03-08", "01:00")) {                                          // 60 min
            _ = try sim.service.alerts.resolve(ResolveAlert(alertId: silent.id, note: "patient phoned back", sodium: nil, actor: "staff:nurse"))
        }
        try sim.at(Berlin.at("2026-03-08", "08:45")) { try sim.submit(patient, "2026-03-08", sim.fullMorning("2026-03-08")) }
        try sim.run(to: Berlin.at("2026-03-08", "12:00"))
        let alerts = try sim.alerts()
        #expect(alerts.count == 2, "\(alerts)")

        let stats = try sim.service.statistics.statistics(StatisticsQuery(studyId: nil, scope: .allSites))
        #expect(stats.generatedAt == Berlin.ms(Berlin.at("2026-03-08", "12:00")))
        let all = try #require(stats.cohorts.first)
        #expect(all.cohort == .all)
        #expect(all.patients == PatientCounts(enrolled: 1, active: 1, finished: 0, withdrawn: 0))
        #expect(all.patientDays == 6)                                                 // 03-03 … 03-08
        #expect(all.daysByLevel == DayLevelCounts(green: 3, yellow: 0, red: 0, none: 3))
        // 03-04 … 03-07 × 8 tasks (desmopressin not prescribed) = 32 due; 8 + 5 + 0 + 0 = 13 done.
        #expect(all.tasksDue == 32 && all.tasksDone == 13)
        #expect(all.adherence == 13.0 / 32.0)
        let sixth = 100.0 / 6
        #expect(all.alertsPer100PatientDays == AlertRates(yellow: sixth, red: sixth, evaluation: 0, missingCheckin: sixth, noData2d: sixth))
        #expect(all.ackMinutes == MinutesSummary(median: 21, p90: 30, n: 2))         // (12 + 30) / 2; ⌈1.8⌉ = 2nd
        #expect(all.resolveMinutes == MinutesSummary(median: 60, p90: 60, n: 1))
        #expect(all.missingDataAlerts == 2)

        let json = StatisticsJSON.statistics.encode(stats)
        guard case .object(let o) = json, case .array(let cohorts)? = o["cohorts"], case .object(let first)? = cohorts.first else {
            Issue.record("unexpected JSON \(json)"); return
        }
        #expect(o["generatedAt"] == "2026-03-08T11:00:00.000Z")
        #expect(first["adherence"] == 0.4063)
        #expect(first["alertsPer100PatientDays"] == ["byLevel": ["yellow": 16.67, "red": 16.67],
                                                     "byKind": ["evaluation": 0, "missing_checkin": 16.67, "no_data_2d": 16.67]])
    }
}
