import Testing
import HTJSON
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// A withdrawal and the escalation ladders still climbing (docs/clinical-rules.md §8).
@Suite struct EscalationAfterWithdrawalTests {
    @Test func aWithdrawnPatientsMissingDataAlertClimbsNoFurtherWhileAnEvaluationAlertKeepsItsLadder() throws {
        let sim = try Simulation(start: Berlin.at("2026-03-04", "09:00"))
        _ = try sim.activate("WD-SILENT", code: try sim.enroll("WD-SILENT", surgery: "2026-03-02"))
        let red = try sim.activate("WD-RED", code: try sim.enroll("WD-RED", surgery: "2026-03-02"))
        try sim.at(Berlin.at("2026-03-04", "09:30")) { try sim.submit(red, "2026-03-04", ["weightMorningKg": 80.0]) }
        // 03-04 and 03-05 without WD-SILENT's data: no_data_2d at 24:00; WD-RED turns red just after.
        try sim.at(Berlin.at("2026-03-06", "00:02")) {
            try sim.submit(red, "2026-03-06", ["emergencySymptoms": ["drowsiness"]])
        }
        let alerts = try sim.alerts()
        let silent = try #require(alerts.first { $0.studyId == "WD-SILENT" && $0.kind == "no_data_2d" })
        let measured = try #require(alerts.first { $0.studyId == "WD-RED" && $0.kind == "evaluation" })
        try sim.at(Berlin.at("2026-03-06", "00:05")) {
            try sim.withdraw("WD-SILENT")
            try sim.withdraw("WD-RED")
        }
        try sim.run(to: Berlin.at("2026-03-06", "02:00"))   // past both ladders' tiers (+15 min, +45 min)
        func types(_ alert: StoredAlert) throws -> [String] {
            try sim.queued().filter { $0.alertId == Int(alert.id) && $0.type.hasPrefix("alert.") }.map { "\($0.type) t\($0.tier ?? -1)" }
        }
        #expect(try types(silent) == ["alert.opened t0"], "the pager is not called about the silence of a patient who left")
        #expect(try types(measured) == ["alert.opened t0", "alert.escalated t1", "alert.escalated t2"], "a measured red still climbs")
    }
}
