import Foundation
import Testing
import HTJSON
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

// Simulations of the scheduler (see Support/Simulation.swift) across downtime, restarts and DST
// changes, and agreement of its reminders with the app's plan.

@Suite struct SchedulerRecoveryTests: SchedulerSimulationSuite {
    // MARK: downtime

    /// After a downtime the missed deadlines are raised once, at the first tick, by a restarted
    /// scheduler; never twice. Reminders more than 30 minutes late are skipped, later ones sent.
    @Test func downtimeRaisesEachMissedDeadlineOnceAndSkipsStaleReminders() throws {
        let surgery = "2026-06-01"
        let d = { (pod: Int) in Berlin.day(surgery, pod) }
        let sim = try Simulation(start: Berlin.at(surgery, "12:00"))
        let code = try sim.enroll("DT-SILENT", surgery: surgery)
        try sim.at(Berlin.at(d(1), "07:00")) { _ = try sim.activate("DT-SILENT", code: code) }
        try sim.run(to: Berlin.at(d(5), "12:00"))
        let before = try sim.findings()
        let resume = Berlin.at(d(7), "11:15")
        sim.skip(to: resume)
        sim.restart()
        try sim.run(to: resume)
        let caughtUp = try sim.findings().filter { a in !before.contains { $0.id == a.id && $0.date == a.date } }
        #expect(caughtUp.map { "\($0.kind) \($0.date)" }.sorted()
                == ["missing_checkin \(d(5))", "missing_checkin \(d(6))", "no_data_2d \(d(5))", "no_data_2d \(d(6))"], "\(caughtUp)")
        #expect(caughtUp.allSatisfy { $0.openedAt == Berlin.ms(resume) })
        try sim.run(to: Berlin.at(d(8), "00:30"))

        // Again at the same instant, by this scheduler and by a restarted one: nothing new.
        let events = try sim.queued().count, alerts = try sim.findings().count
        try sim.tickAgain()
        sim.restart()
        try sim.tickAgain()
        #expect(try sim.queued().count == events)
        #expect(try sim.findings().count == alerts)

        var expected: [String: Int64] = [:]
        for p in 2...7 { expected["no_data_2d \(d(p))"] = Berlin.ms(Berlin.at(d(p + 1), "00:00")) }
        for p in 5...7 { expected["missing_checkin \(d(p))"] = Berlin.ms(Berlin.at(d(p), "21:00")) }
        for key in ["no_data_2d \(d(5))", "no_data_2d \(d(6))", "missing_checkin \(d(5))", "missing_checkin \(d(6))"] {
            expected[key] = Berlin.ms(resume)
        }
        let all = try sim.findings()
        #expect(Set(try sim.alerts().map(\.kind)).count == (try sim.alerts()).count, "one alert per kind, covering its days")
        #expect(Dictionary(all.map { ("\($0.kind) \($0.date)", $0.openedAt) }, uniquingKeysWith: { a, _ in a }) == expected)
        #expect(all.count == expected.count, "each raised once: \(all)")

        // Reminders: none during the downtime; on the day of the restart the 11:00 one (15 min
        // late) is sent, the older ones are skipped, the later ones sent on time.
        #expect(try Self.remindersOn(sim, "DT-SILENT", d(6)).isEmpty)
        #expect(try sim.reminders("DT-SILENT").filter { $0.string("date") == d(5) && $0.createdAt > Berlin.ms(Berlin.at(d(5), "12:00")) }.isEmpty)
        let day7 = try sim.reminders("DT-SILENT").filter { $0.string("date") == d(7) }
        #expect(day7.map { "\($0.string("at")?.dropFirst(11).prefix(5) ?? "") \($0.string("kind") ?? "")" }
                == ["11:00 missed", "15:00 catch_up", "18:00 task", "20:00 check", "21:00 missed"], "\(day7)")
        #expect(day7.first?.createdAt == Berlin.ms(resume), "the late one is sent at the restart")
        let marks = try sim.marks("DT-SILENT", date: d(7))
        for key in ["reminder@08:00:check", "reminder@08:30:task", "reminder@10:00:task", "reminder@10:15:task"] {
            #expect(marks.contains { $0.key.hasPrefix(key) && $0.value == "skipped" }, "\(key) skipped: \(marks)")
        }
    }

    // MARK: escalation

    /// Tiers fire at their absolute due times, once, also across restarts and downtime; an
    /// acknowledgement stops the climb; a worsening restarts the ladder (the old one is void).
    @Test func escalationTiersFireAtTheirAbsoluteTimesOnceAcrossRestarts() throws {
        let surgery = "2026-06-01"
        let pod6 = Berlin.day(surgery, 6)
        let ladder = EscalationLadder(
            red: [.init(afterMinutes: 0, hooks: ["ward"]), .init(afterMinutes: 15, hooks: ["oncall"]),
                  .init(afterMinutes: 45.5, hooks: ["lead"])],
            yellow: [.init(afterMinutes: 0, hooks: ["ward"]), .init(afterMinutes: 30, hooks: ["oncall"])])
        let sim = try Simulation(start: Berlin.at(pod6, "09:00"), step: 30, ladder: ladder)
        for id in ["ES-A", "ES-B", "ES-C", "ES-D"] {
            let code = try sim.enroll(id, surgery: surgery)
            _ = try sim.activate(id, code: code)
        }
        let t = Berlin.at(pod6, "10:00")
        try sim.at(t) {
            try sim.lab("ES-A", 128)   // red
            try sim.lab("ES-B", 128)   // red, acknowledged after tier 1
            try sim.lab("ES-C", 133)   // yellow, worsens later
        }
        try sim.at(t + 600) { try sim.lab("ES-C", 128) }
        let alertB = try #require(try sim.alerts().first { $0.studyId == "ES-B" })
        try sim.at(t + 1200) {
            try sim.acknowledge(alertB.id)
            sim.restart()
        }
        try sim.run(to: t + 4200)
        // Downtime over both tiers of a new alert.
        try sim.at(t + 4200) { try sim.lab("ES-D", 127) }
        sim.skip(to: t + 7800)
        sim.restart()
        try sim.run(to: t + 8400)
        let count = try sim.queued().count
        try sim.tickAgain()
        sim.restart()
        try sim.tickAgain()
        #expect(try sim.queued().count == count, "nothing fires twice")

        let alerts = try sim.alerts()
        func timeline(_ studyId: String) throws -> [String] {
            let ids = Set(alerts.filter { $0.studyId == studyId }.map { Int($0.id) })
            return try sim.queued().filter { $0.alertId.map(ids.contains) == true && $0.type != "reminder.due" }
                .map { "\($0.type)→\($0.hook) \($0.level ?? "") t\($0.tier.map(String.init) ?? "-") +\(Double($0.createdAt - Berlin.ms(t)) / 60_000)m" }
        }
        #expect(try timeline("ES-A") == ["alert.opened→ward red t0 +0.0m", "alert.escalated→oncall red t1 +15.0m",
                                         "alert.escalated→lead red t2 +45.5m"])
        #expect(try timeline("ES-B") == ["alert.opened→ward red t0 +0.0m", "alert.escalated→oncall red t1 +15.0m",
                                         "alert.acknowledged→oncall red t- +20.0m", "alert.acknowledged→ward red t- +20.0m"])
        // Worsened at +10: the red ladder counts from then; the yellow tier 1 (+30) is void.
        #expect(try timeline("ES-C") == ["alert.opened→ward yellow t0 +0.0m", "alert.worsened→ward red t0 +10.0m",
                                         "alert.escalated→oncall red t1 +25.0m", "alert.escalated→lead red t2 +55.5m"])
        // Both tiers were due during the downtime: fired once at the restart, in order.
        #expect(try timeline("ES-D") == ["alert.opened→ward red t0 +70.0m", "alert.escalated→oncall red t1 +130.0m",
                                         "alert.escalated→lead red t2 +130.0m"])
        #expect(alerts.filter { $0.studyId == "ES-C" }.count == 1, "a worsening keeps the alert")
        #expect(alerts.first { $0.studyId == "ES-C" }?.level == "red")
    }

    // MARK: DST

    /// Spring forward (2026-03-29, POD 5 of a surgery on 03-24): with the morning check moved to
    /// 02:30 (inside the gap), every reminder fires exactly once at its local time; 02:30 fires at
    /// 03:30 CEST. Missing-data deadlines fall on the right instants too.
    @Test func springForwardEachReminderOnceAtTheRightInstant() throws {
        try Self.dstCourse(surgery: "2026-03-24", offsets: [
            "2026-03-28": ("+01:00", "+01:00"), "2026-03-29": ("+02:00", "+02:00"), "2026-03-30": ("+02:00", "+02:00"),
        ], gapAt: "2026-03-29T03:30:00+02:00", missing: [
            "no_data_2d 2026-03-28": "2026-03-28T23:00:00Z", "no_data_2d 2026-03-29": "2026-03-29T22:00:00Z",
            "no_data_2d 2026-03-30": "2026-03-30T22:00:00Z",
            "missing_checkin 2026-03-29": "2026-03-29T19:00:00Z", "missing_checkin 2026-03-30": "2026-03-30T19:00:00Z",
        ])
    }

    /// Fall back (2026-10-25, POD 5 of a surgery on 10-20): 02:30 occurs twice and fires once, at
    /// the first occurrence (00:30Z); the rest at their CET instants.
    @Test func fallBackEachReminderOnceAtTheRightInstant() throws {
        try Self.dstCourse(surgery: "2026-10-20", offsets: [
            "2026-10-24": ("+02:00", "+02:00"), "2026-10-25": ("+02:00", "+01:00"), "2026-10-26": ("+01:00", "+01:00"),
        ], gapAt: nil, missing: [
            "no_data_2d 2026-10-24": "2026-10-24T22:00:00Z", "no_data_2d 2026-10-25": "2026-10-25T23:00:00Z",
            "no_data_2d 2026-10-26": "2026-10-26T23:00:00Z",
            "missing_checkin 2026-10-25": "2026-10-25T20:00:00Z", "missing_checkin 2026-10-26": "2026-10-26T20:00:00Z",
        ])
    }

    /// Quiet hours 03:00–07:00 and the morning check at 02:30, which the rule files accept: the
    /// spring-forward gap of 2027-03-28 would move it to 03:30 CEST, inside quiet hours, so it is
    /// not sent that day; in the repeated hour of 2027-10-31 it is sent once, at 02:30 CEST.
    @Test func aCheckTheGapMovesIntoQuietHoursIsNotSentAndTheRepeatedHourSendsItOnce() throws {
        let courses = [("2027-03-23", "2027-03-28", ["2027-03-28T20:00:00+02:00"]),
                       ("2027-10-26", "2027-10-31", ["2027-10-31T02:30:00+02:00", "2027-10-31T20:00:00+01:00"])]
        for (surgery, day, checks) in courses {
            let sim = try Self.nightCheckCourse("DST-Q", surgery: surgery, quietHours: ("03:00", "07:00"))
            try sim.run(to: Berlin.instant("\(Berlin.day(day, 1))T00:30:00Z"))   // every tick of the day, both 02:30s of 10-31

            let onDay = try Self.remindersOn(sim, "DST-Q", day)   // also checks each was queued at its instant
            #expect(!onDay.contains { ("03:00"..."06:59").contains($0.time) }, "\(day): \(onDay)")
            let sent = try sim.reminders("DST-Q").filter { $0.string("date") == day && $0.string("kind") == "check" }
            #expect(sent.map { $0.string("at") ?? "" }.sorted() == checks, "\(day)")
            let dayBefore = try Self.remindersOn(sim, "DST-Q", Berlin.day(day, -1))
            #expect(dayBefore.filter { $0.time == "02:30" }.map(\.kind) == ["check"], "the day before sends it at its time")
        }
    }

    /// A silent patient `studyId`, activated on POD 3 at 12:00, whose morning check is at 02:30;
    /// ticks every 5 minutes.
    static func nightCheckCourse(_ studyId: String, surgery: String, quietHours: (from: String, to: String)) throws -> Simulation {
        let pod3 = Berlin.day(surgery, 3)
        let sim = try Simulation(start: Berlin.at(pod3, "11:00"), step: 300) { o in
            o["checkTimes"] = ["morning": "02:30", "evening": "20:00"]
            o["quietHours"] = ["from": .string(quietHours.from), "to": .string(quietHours.to)]
        }
        let code = try sim.enroll(studyId, surgery: surgery)
        try sim.at(Berlin.at(pod3, "12:00")) { _ = try sim.activate(studyId, code: code) }
        return sim
    }

    /// The silent patient of `nightCheckCourse` without quiet hours, run to POD 7 00:30.
    /// `offsets[date]` = (offset of 02:30, offset of every later time that day).
    static func dstCourse(surgery: String, offsets: [String: (String, String)], gapAt: String?, missing: [String: String]) throws {
        let d = { (pod: Int) in Berlin.day(surgery, pod) }
        let sim = try nightCheckCourse("DST-1", surgery: surgery, quietHours: ("00:00", "00:00"))
        try sim.run(to: Berlin.instant("\(d(7))T00:30:00\(offsets[d(6)]!.1)"))

        let morning = [wm, sm, usg], evening = [fl, rt, tt, we, se]
        for pod in 4...6 {
            let date = d(pod)
            var plan: [(String, String, [String])] = [
                ("02:30", "check", morning), ("08:30", "task", [usg]), ("10:00", "task", [rt]), ("10:15", "task", [tt]),
                ("11:00", "missed", morning), ("18:00", "task", [fl]), ("20:00", "check", evening), ("21:00", "missed", evening)]
            if pod >= 5 { plan.append(("15:00", "catch_up", morning + evening)) }   // maximal in the window
            let (early, late) = offsets[date]!
            let expected = plan.map { p -> String in
                let at = p.0 == "02:30" && gapAt != nil && date == String(gapAt!.prefix(10)) ? gapAt! : "\(date)T\(p.0):00\(p.0 == "02:30" ? early : late)"
                return "\(at) \(p.1) \(p.2.sorted().joined(separator: ","))"
            }.sorted()
            let events = try sim.reminders("DST-1").filter { $0.string("date") == date }
            let actual = events.map { "\($0.string("at") ?? "") \($0.string("kind") ?? "") \($0.tasks.joined(separator: ","))" }.sorted()
            #expect(actual == expected, "POD \(pod) \(date)")
            for e in events {
                #expect(Berlin.ms(Berlin.instant(e.string("at") ?? "")) == e.createdAt, "queued at its instant: \(e)")
            }
        }
        let alerts = try sim.findings().filter { (d(4)...d(6)).contains($0.date) }
        #expect(Dictionary(alerts.map { ("\($0.kind) \($0.date)", $0.openedAt) }, uniquingKeysWith: { a, _ in a })
                == missing.mapValues { Berlin.ms(Berlin.instant($0)) }, "\(alerts)")
        #expect(alerts.count == missing.count)
    }

    // MARK: reminder identity

    /// Two task reminders at the same local time (urine and desmopressin both at 08:30) are two
    /// reminders: each is sent.
    @Test func taskRemindersAtTheSameTimeAreEachSent() throws {
        let surgery = "2026-06-01"
        let d = { (pod: Int) in Berlin.day(surgery, pod) }
        let sim = try Simulation(start: Berlin.at(d(3), "11:00")) { o in
            o["taskTimes"] = ["urine_sg": "08:30", "reaction_test": "10:00", "tapping_test": "10:15", "desmopressin": "08:30",
                              "fluid_log": "18:00"]
        }
        let code = try sim.enroll("SAME-1", surgery: surgery, [("desmopressinPrescribed", true), ("simplifiedMode", true)])
        try sim.at(Berlin.at(d(3), "12:00")) { _ = try sim.activate("SAME-1", code: code) }
        try sim.run(to: Berlin.at(d(5), "09:00"))
        for pod in [4, 5] {
            let at0830 = try Self.remindersOn(sim, "SAME-1", d(pod)).filter { $0.time == "08:30" }
            #expect(at0830 == [ExpectedReminder("08:30", "task", [Self.ds]), ExpectedReminder("08:30", "task", [Self.usg])].sorted(),
                    "POD \(pod)")
        }
    }

    // MARK: agreement with the app's plan

    /// The daemon's `reminder.due` follows the same plan as `GET /v1/me/today` (which the app
    /// schedules from), also with a longer adherence window (7 days) configured.
    @Test func reminderDueFollowsTheAppsPlanWithALongerAdherenceWindow() throws {
        let surgery = "2026-06-01"
        let d = { (pod: Int) in Berlin.day(surgery, pod) }
        let sim = try Simulation(start: Berlin.at(surgery, "17:00")) { o in
            if case .object(var i)? = o["intensity"] { i["adherenceDays"] = 7; o["intensity"] = .object(i) }
        }
        let code = try sim.enroll("ADH-1", surgery: surgery)
        var patient: Int64 = 0
        try sim.at(Berlin.at(surgery, "18:00")) { patient = try sim.activate("ADH-1", code: code) }
        for pod in 1...12 {
            let date = d(pod)
            try sim.at(Berlin.at(date, "08:45")) { try sim.submit(patient, date, sim.fullMorning(date)) }
            if pod < 12 { try sim.at(Berlin.at(date, "20:30")) { try sim.submit(patient, date, sim.fullEvening(date)) } }
        }
        // POD 12, 20:55: every task of the past 7 days done, the morning check done → minimal.
        try sim.run(to: Berlin.at(d(12), "20:55"))
        guard case .object(let today) = DayJSON.today.encode(TodayAnswer(try sim.service.days.today(patientId: patient), language: nil,
                                                                 emergencyNumber: sim.service.configuration.app.emergencyNumber)),
              case .object(let reminders)? = today["reminders"], case .array(let plan)? = reminders["plan"] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        #expect(reminders["intensity"] == "minimal")
        try sim.run(to: Berlin.at(d(13), "00:00"))
        // The plan lists what is still open now, so compare the evening (20:00 and later).
        let evening = { (at: String) in String(at.dropFirst(11).prefix(5)) >= "20:00" }
        let planned = plan.compactMap { p -> String? in
            guard case .object(let o) = p, case .string(let at)? = o["at"], case .string(let kind)? = o["kind"], evening(at) else { return nil }
            return "\(at) \(kind)"
        }.sorted()
        #expect(!planned.isEmpty)
        let sent = try sim.reminders("ADH-1").filter { $0.string("date") == d(12) && evening($0.string("at") ?? "") }
            .map { "\($0.string("at") ?? "") \($0.string("kind") ?? "")" }
        #expect(sent.sorted() == planned, "the daemon sends what the app was told")
        #expect(!sent.contains { $0.hasSuffix("missed") }, "minimal: no missed reminders")
    }
}
