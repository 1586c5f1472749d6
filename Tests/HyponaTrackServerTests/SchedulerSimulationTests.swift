import Foundation
import Testing
import HTJSON
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

// Fortnight simulations of the scheduler (see Support/Simulation.swift): the reminders of each
// intensity branch and the missing-data alerts.

@Suite struct SchedulerSimulationTests: SchedulerSimulationSuite {
    // MARK: a fortnight per intensity branch

    /// Good adherence: check reminders only (minimal once the morning check is done), task
    /// reminders in the critical window; poor adherence: elevated, maximal in the window;
    /// simplified mode and desmopressin; done tasks never listed; nothing before activation or
    /// after monitoring ends.
    @Test func twoWeekCourseSendsTheRemindersOfEachIntensityBranch() throws {
        let surgery = "2026-04-13"
        let sim = try Simulation(start: Berlin.at(surgery, "17:00"))
        let codes = try ["SIM-GOOD", "SIM-POOR", "SIM-SIMPLE", "SIM-NOACT"].map { id in
            try sim.enroll(id, surgery: surgery, id == "SIM-SIMPLE" ? [("simplifiedMode", true), ("desmopressinPrescribed", true)] : [])
        }
        var good: Int64 = 0, poor: Int64 = 0, simple: Int64 = 0
        try sim.at(Berlin.at(surgery, "18:00")) {
            good = try sim.activate("SIM-GOOD", code: codes[0])
            poor = try sim.activate("SIM-POOR", code: codes[1])
            simple = try sim.activate("SIM-SIMPLE", code: codes[2])
        }
        for pod in 1...16 {
            let date = Berlin.day(surgery, pod)
            let monitoring = pod <= 14
            try sim.at(Berlin.at(date, "07:30")) {
                guard monitoring else { return }
                try sim.submit(poor, date, ["weightMorningKg": 80.0])
                try sim.submit(simple, date, JSONObject([("weightMorningKg", 80.0), ("urineSG", 1.010),
                                                         ("symptoms", [sim.symptoms("m-\(date)", date, "07:30", slot: "morning")])]))
            }
            try sim.at(Berlin.at(date, "08:45")) { if monitoring { try sim.submit(good, date, sim.fullMorning(date)) } }
            try sim.at(Berlin.at(date, "20:30")) { if monitoring { try sim.submit(good, date, sim.fullEvening(date)) } }
        }
        try sim.run(to: Berlin.at(Berlin.day(surgery, 17), "00:00"))

        let critical = 5...9
        let morning = [Self.wm, Self.sm, Self.usg]
        func goodPlan(_ pod: Int) -> [ExpectedReminder] {
            guard (1...14).contains(pod) else { return [] }
            var r = [ExpectedReminder("08:00", "check", morning), ExpectedReminder("20:00", "check", [Self.fl, Self.we, Self.se])]
            // Elevated in the window: the open tasks with their own times (the tests were done at 08:45).
            if critical.contains(pod) { r += [ExpectedReminder("08:30", "task", [Self.usg]), ExpectedReminder("18:00", "task", [Self.fl])] }
            return r.sorted()
        }
        func poorPlan(_ pod: Int) -> [ExpectedReminder] {
            guard (1...14).contains(pod) else { return [] }
            let open = [Self.sm, Self.usg], evening = [Self.fl, Self.rt, Self.tt, Self.we, Self.se]
            var r = [ExpectedReminder("08:00", "check", open), ExpectedReminder("11:00", "missed", open),
                     ExpectedReminder("20:00", "check", evening), ExpectedReminder("21:00", "missed", evening)]
            if pod >= 2 {   // adherence 1/8 from POD 2 on: elevated
                r += [ExpectedReminder("08:30", "task", [Self.usg]), ExpectedReminder("10:00", "task", [Self.rt]),
                      ExpectedReminder("10:15", "task", [Self.tt]), ExpectedReminder("18:00", "task", [Self.fl])]
            }
            if critical.contains(pod) { r.append(ExpectedReminder("15:00", "catch_up", open + evening)) }   // maximal
            return r.sorted()
        }
        func simplePlan(_ pod: Int) -> [ExpectedReminder] {
            guard (1...14).contains(pod) else { return [] }
            let evening = [Self.fl, Self.we, Self.se, Self.ds]
            var r = [ExpectedReminder("20:00", "check", evening)]
            if pod >= 2 {   // adherence 3/7: elevated
                r += [ExpectedReminder("09:00", "task", [Self.ds]), ExpectedReminder("18:00", "task", [Self.fl]),
                      ExpectedReminder("21:00", "missed", evening)]
            }
            if critical.contains(pod) { r.append(ExpectedReminder("15:00", "catch_up", evening)) }
            return r.sorted()
        }
        for pod in 0...16 {
            let date = Berlin.day(surgery, pod)
            #expect(try Self.remindersOn(sim, "SIM-GOOD", date) == goodPlan(pod), "SIM-GOOD POD \(pod)")
            #expect(try Self.remindersOn(sim, "SIM-POOR", date) == poorPlan(pod), "SIM-POOR POD \(pod)")
            #expect(try Self.remindersOn(sim, "SIM-SIMPLE", date) == simplePlan(pod), "SIM-SIMPLE POD \(pod)")
        }
        #expect(try sim.reminders("SIM-NOACT").isEmpty, "no reminders before activation")

        // Intensities as §7 says: inside the window at least elevated; good adherence minimal
        // once the morning check is done; poor adherence elevated, maximal in the window.
        for e in try sim.queued() where e.type == "reminder.due" {
            var pod = -1
            if case .number(let n)? = e.data["pod"] { pod = Int(n) }
            let intensity = e.string("intensity") ?? "?"
            if critical.contains(pod) { #expect(["elevated", "maximal"].contains(intensity), "\(e)") }
            switch (e.studyId, critical.contains(pod)) {
            case ("SIM-GOOD", false):
                #expect(intensity == (e.string("kind") == "check" && e.string("at")?.contains("T08:00") == true ? "normal" : "minimal"), "\(e)")
            case ("SIM-POOR", true), ("SIM-SIMPLE", true): #expect(intensity == "maximal", "\(e)")
            case ("SIM-POOR", false): #expect(intensity == (pod == 1 ? "normal" : "elevated"), "\(e)")
            case ("SIM-SIMPLE", false): #expect(intensity == (pod == 1 ? "minimal" : "elevated"), "\(e)")
            default: break
            }
        }
        // Done and hidden tasks are never reminded.
        let all = try sim.queued().filter { $0.type == "reminder.due" }
        #expect(!all.contains { $0.studyId == "SIM-POOR" && $0.tasks.contains(Self.wm) }, "weight is done at 07:30")
        #expect(!all.contains { $0.studyId == "SIM-SIMPLE" && !Set($0.tasks).isDisjoint(with: [Self.rt, Self.tt] + morning) })
        #expect(!all.contains { $0.studyId != "SIM-SIMPLE" && $0.tasks.contains(Self.ds) }, "desmopressin only when prescribed")

        // The only findings: the poor patient's missed check-ins in the window, at the evening
        // deadline, all days of one alert (an episode).
        #expect(try sim.alerts().count == 1)
        let alerts = try sim.findings()
        #expect(alerts.map { "\($0.studyId) \($0.kind) \($0.date) \($0.level)" }
                == critical.map { "SIM-POOR missing_checkin \(Berlin.day(surgery, $0)) yellow" }, "\(alerts)")
        for a in alerts { #expect(a.openedAt == Berlin.ms(Berlin.at(a.date, "21:00")), "\(a)") }
    }

    // MARK: missing data (§8)

    @Test func missingDataAlertsFireExactlyAsSpecified() throws {
        let surgery = "2026-05-04"
        let d = { (pod: Int) in Berlin.day(surgery, pod) }
        let sim = try Simulation(start: Berlin.at(surgery, "13:00"))   // codes live 72 h: MD-SILENT activates at POD 3 12:00
        var code: [String: String] = [:]
        for id in ["MD-SILENT", "MD-LABS", "MD-PARTIAL", "MD-WITHDRAWN", "MD-NEVER"] {
            code[id] = try sim.enroll(id, surgery: surgery)
        }
        var partial: Int64 = 0
        for pod in 1...16 {
            let date = d(pod)
            if pod == 1 {
                try sim.at(Berlin.at(date, "07:00")) {
                    _ = try sim.activate("MD-LABS", code: code["MD-LABS"]!)
                    partial = try sim.activate("MD-PARTIAL", code: code["MD-PARTIAL"]!)
                    _ = try sim.activate("MD-WITHDRAWN", code: code["MD-WITHDRAWN"]!)
                }
            }
            try sim.at(Berlin.at(date, "07:30")) {
                if (1...4).contains(pod) || (11...14).contains(pod) { try sim.submit(partial, date, ["weightMorningKg": 80.0]) }
            }
            try sim.at(Berlin.at(date, "09:00")) {
                if pod <= 14 {   // staff values are not patient data: labs, corrections, imported steps
                    try sim.lab("MD-LABS", 140)
                    try sim.correct("MD-LABS", date, ["weightMorningKg": 80.0, "steps": 4000])
                }
                if pod == 5 {   // morning check complete
                    try sim.submit(partial, date, JSONObject([("weightMorningKg", 80.0),
                                                              ("symptoms", [sim.symptoms("m5", date, "09:00", slot: "morning")])]))
                }
                if pod == 7 { try sim.submit(partial, date, ["weightMorningKg": 80.0]) }
            }
            if pod == 6 { try sim.at(Berlin.at(date, "10:00")) { try sim.withdraw("MD-WITHDRAWN") } }
            if pod == 3 { try sim.at(Berlin.at(date, "12:00")) { _ = try sim.activate("MD-SILENT", code: code["MD-SILENT"]!) } }
            // Enrolled late (codes expire after 72 h), activated on POD 8 after the evening deadline.
            if pod == 7 { try sim.at(Berlin.at(date, "12:00")) { code["MD-LATE"] = try sim.enroll("MD-LATE", surgery: surgery) } }
            try sim.at(Berlin.at(date, "20:30")) {
                if pod == 6 {   // evening check complete
                    try sim.submit(partial, date, JSONObject([("weightEveningKg", 80.0),
                                                              ("symptoms", [sim.symptoms("e6", date, "20:30", slot: "evening")])]))
                }
                if pod == 7 { try sim.submit(partial, date, ["weightEveningKg": 80.0]) }   // weights, but no check complete
            }
            if pod == 8 {
                try sim.at(Berlin.at(date, "21:30")) {   // complete, but after the evening deadline
                    try sim.submit(partial, date, JSONObject([("weightEveningKg", 80.0),
                                                              ("symptoms", [sim.symptoms("e8", date, "21:30", slot: "evening")])]))
                }
                try sim.at(Berlin.at(date, "22:00")) { _ = try sim.activate("MD-LATE", code: code["MD-LATE"]!) }
            }
        }
        try sim.run(to: Berlin.at(d(17), "00:00"))

        // (study, kind, POD) → the instant it must have been raised.
        var expected: [String: Double] = [:]
        func checkin(_ id: String, _ pods: [Int]) { for p in pods { expected["\(id) missing_checkin \(d(p))"] = Berlin.at(d(p), "21:00") } }
        func noData(_ id: String, _ pods: ClosedRange<Int>) { for p in pods { expected["\(id) no_data_2d \(d(p))"] = Berlin.at(d(p + 1), "00:00") } }
        // Activated on POD 3: the first pair of empty days on/after activation is POD 3–4.
        // A red no_data_2d on POD ≥ 10 is "any yellow/red on POD ≥ 10": monitoring extends to
        // POD 21, so silence goes on raising alerts after POD 14 (here up to POD 16, the run's end).
        checkin("MD-SILENT", Array(5...9)); noData("MD-SILENT", 4...16)
        checkin("MD-LABS", Array(5...9)); noData("MD-LABS", 2...16)
        // Activated on POD 8 at 22:00: that day's deadline passed before activation; the
        // activation day counts for no_data_2d.
        checkin("MD-LATE", [9]); noData("MD-LATE", 9...16)
        // Morning check (POD 5) or evening check (POD 6) complete: none; weights only, a late
        // evening check, nothing: raised. No data on POD 9–10; the red on POD 10 extends the
        // window, and after the last data on POD 14 the second silent day is POD 16.
        checkin("MD-PARTIAL", [7, 8, 9]); noData("MD-PARTIAL", 10...10); noData("MD-PARTIAL", 16...16)
        // Withdrawn on POD 6: monitoring ended on POD 5; nothing after.
        checkin("MD-WITHDRAWN", [5]); noData("MD-WITHDRAWN", 2...5)

        let alerts = try sim.findings()
        var seen: [String: Int] = [:]
        for a in alerts {
            let key = "\(a.studyId) \(a.kind) \(a.date)"
            seen[key, default: 0] += 1
            guard let instant = expected[key] else { Issue.record("unexpected alert \(a)"); continue }
            #expect(a.openedAt == Berlin.ms(instant), "raised exactly at its deadline: \(a)")
            #expect(a.level == (a.kind == "missing_checkin" ? "yellow" : "red"), "\(a)")
        }
        for key in expected.keys.sorted() { #expect(seen[key] == 1, "\(key) raised \(seen[key] ?? 0) times") }
        #expect(!alerts.contains { $0.studyId == "MD-NEVER" })

        // They are alerts like any other: tier 0 at once, and a red one climbs its ladder.
        let first = try #require(alerts.first { $0.studyId == "MD-SILENT" && $0.kind == "no_data_2d" && $0.date == d(4) })
        let events = try sim.queued().filter { $0.alertId == Int(first.id) }
        #expect(events.map { "\($0.type)→\($0.hook) t\($0.tier ?? -1) +\(($0.createdAt - first.openedAt) / 60_000)m" }
                == ["alert.opened→ward t0 +0m", "alert.escalated→oncall t1 +15m", "alert.escalated→lead t2 +45m"])
        #expect(events.first?.string("kind") == "no_data_2d")
        let checkinAlert = try #require(alerts.first { $0.studyId == "MD-SILENT" && $0.kind == "missing_checkin" })
        #expect(try sim.queued().filter { $0.alertId == Int(checkinAlert.id) }.map { "\($0.type)→\($0.hook)" } == ["alert.opened→ward"])
    }

    /// missing_checkin is about the patient: checks that only staff completed (a correction after
    /// a phone call; a confirmed import writes the same way) are not the patient's check-in, as
    /// for no_data_2d only the days the patient submitted count.
    @Test func checksOnlyStaffCompletedStillRaiseMissingCheckin() throws {
        let surgery = "2026-05-04"
        let d = { (pod: Int) in Berlin.day(surgery, pod) }
        let sim = try Simulation(start: Berlin.at(surgery, "13:00"))
        let codes = try ["MC-STAFF", "MC-OWN"].map { try sim.enroll($0, surgery: surgery) }
        var own: Int64 = 0
        try sim.at(Berlin.at(d(1), "07:00")) {
            _ = try sim.activate("MC-STAFF", code: codes[0])
            own = try sim.activate("MC-OWN", code: codes[1])
        }
        for pod in 5...6 {
            let date = d(pod)
            try sim.at(Berlin.at(date, "20:30")) {
                let bothChecks: JSONValue = ["weightMorningKg": 80.0, "weightEveningKg": 80.2,
                                             "symptoms": [sim.symptoms("m-\(date)", date, "08:45", slot: "morning"),
                                                          sim.symptoms("e-\(date)", date, "20:30", slot: "evening")]]
                let corrected = InProcessAdminAPITests.object(try sim.correct("MC-STAFF", date, bothChecks))
                #expect(corrected["morningCheckComplete"] == true && corrected["eveningCheckComplete"] == true, "\(corrected)")
                try sim.submit(own, date, sim.fullMorning(date, "20:30"))
            }
        }
        try sim.run(to: Berlin.at(d(7), "00:00"))

        let raised = try sim.findings().filter { $0.kind == "missing_checkin" }
        #expect(raised.map { "\($0.studyId) \($0.date)" } == ["MC-STAFF \(d(5))", "MC-STAFF \(d(6))"], "\(raised)")
        for a in raised { #expect(a.openedAt == Berlin.ms(Berlin.at(a.date, "21:00")), "\(a)") }
    }

}
