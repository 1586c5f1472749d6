import Testing
@testable import HyponaTrackCore

/// The ward board's status and missing checks (docs/product.md, "The clinician console",
/// "Console and sessions"). Surgery 2026-03-02 (Berlin, CET): monitoring is POD 1–14,
/// 2026-03-03 … 2026-03-16; deadlines 11:00 and 21:00.
@Suite struct WardBoardRulesTests {
    let rules = WardBoardRules(reminders: Fixtures.rules.reminders)
    let zone = ZoneRules(identifier: "Europe/Berlin")!

    func ms(_ time: String) -> Int64 { Int64(Fixtures.time(time).epochSeconds * 1000) }

    func patient(at now: String, enrolled: String = "2026-03-01T09:00:00+01:00",
                 activated: String? = "2026-03-03T10:00:00+01:00", withdrawalDate: String? = nil) -> WardBoardRules.Patient {
        let window = MonitoringWindow(profile: Fixtures.profile(), rules: Fixtures.rules.reminders,
                                      withdrawalDate: withdrawalDate.map(Fixtures.date))
        return WardBoardRules.Patient(withdrawn: withdrawalDate != nil, enrolledAtMs: ms(enrolled), activatedAtMs: activated.map(ms),
                                      window: window, zone: zone, today: zone.localDate(atEpochSeconds: Fixtures.time(now).epochSeconds))
    }

    func status(at now: String, enrolled: String = "2026-03-01T09:00:00+01:00", activated: String? = "2026-03-03T10:00:00+01:00",
                withdrawalDate: String? = nil) -> WardBoardRules.Status {
        rules.status(of: patient(at: now, enrolled: enrolled, activated: activated, withdrawalDate: withdrawalDate),
                     now: Fixtures.time(now).epochSeconds)
    }

    func missing(at now: String, activated: String? = "2026-03-03T10:00:00+01:00",
                 completed: [String: Set<ReminderRules.Deadline>] = [:]) -> [WardBoardRules.MissingCheck] {
        let done = Dictionary(uniqueKeysWithValues: completed.map { (Fixtures.date($0.key), $0.value) })
        return rules.missingChecks(of: patient(at: now, activated: activated), completed: done, now: Fixtures.time(now).epochSeconds)
    }

    func check(_ daysAgo: Int, _ slot: ReminderRules.Deadline) -> WardBoardRules.MissingCheck {
        WardBoardRules.MissingCheck(daysAgo: daysAgo, slot: slot)
    }

    // MARK: status

    @Test func withdrawalWinsOverEveryOtherStatus() {
        #expect(status(at: "2026-03-07T12:00:00+01:00", withdrawalDate: "2026-03-06") == .withdrawn)
        #expect(status(at: "2026-03-02T12:00:00+01:00", activated: nil, withdrawalDate: "2026-03-09") == .withdrawn)
    }

    @Test func anEndedWindowFinishesEvenAPatientNeverActivated() {
        #expect(status(at: "2026-03-16T23:59:00+01:00") == .monitoring, "POD 14 is the last day")
        #expect(status(at: "2026-03-17T00:00:00+01:00") == .finished)
        #expect(status(at: "2026-03-17T12:00:00+01:00", activated: nil) == .finished)
    }

    @Test func notActivatedIsFlaggedOnlyAfterMoreThan24Hours() {
        #expect(status(at: "2026-03-02T09:00:00+01:00", activated: nil) == .notActivated, "exactly 24 hours")
        #expect(status(at: "2026-03-02T09:00:01+01:00", activated: nil) == .activationOverdue)
        #expect(status(at: "2026-03-05T12:00:00+01:00", activated: nil) == .activationOverdue, "inside the window too")
    }

    @Test func anActivatedPatientIsBeforeMonitoringUntilPOD1() {
        #expect(status(at: "2026-03-02T23:59:00+01:00", activated: "2026-03-01T10:00:00+01:00") == .beforeMonitoring)
        #expect(status(at: "2026-03-03T00:00:00+01:00", activated: "2026-03-01T10:00:00+01:00") == .monitoring)
    }

    @Test func todayIsThePatientsLocalDate() {
        // 23:30 UTC on 03-16 is already 03-17 in Berlin: the window has ended there.
        #expect(status(at: "2026-03-16T23:30:00Z") == .finished)
    }

    @Test func onlyFinishedAndWithdrawnPatientsAreLeftOffTheBoard() {
        let watched: [WardBoardRules.Status] = [.notActivated, .activationOverdue, .beforeMonitoring, .monitoring]
        #expect(watched.allSatisfy { $0.isWatched })
        #expect(!WardBoardRules.Status.finished.isWatched && !WardBoardRules.Status.withdrawn.isWatched)
    }

    // MARK: missing checks

    @Test func aCheckIsMissingOnlyOnceItsDeadlinePassed() {
        #expect(missing(at: "2026-03-07T10:59:00+01:00") == [check(1, .morning), check(1, .evening)])
        #expect(missing(at: "2026-03-07T11:00:00+01:00") == [check(1, .morning), check(1, .evening), check(0, .morning)])
        #expect(missing(at: "2026-03-07T21:00:00+01:00") == [check(1, .morning), check(1, .evening), check(0, .morning),
                                                            check(0, .evening)])
    }

    @Test func aCompleteCheckIsNotMissing() {
        let completed: [String: Set<ReminderRules.Deadline>] = ["2026-03-06": [.morning], "2026-03-07": [.morning, .evening]]
        #expect(missing(at: "2026-03-07T22:00:00+01:00", completed: completed) == [check(1, .evening)])
        #expect(missing(at: "2026-03-07T22:00:00+01:00", completed: ["2026-03-07": []]).count == 4, "a stored day with no check complete")
    }

    @Test func aDeadlineBeforeTheActivationIsNotMissing() {
        #expect(missing(at: "2026-03-03T22:00:00+01:00", activated: "2026-03-03T12:00:00+01:00") == [check(0, .evening)])
        #expect(missing(at: "2026-03-04T12:00:00+01:00", activated: "2026-03-03T21:00:00+01:00") == [check(0, .morning)],
                "a deadline at the very activation instant does not count")
    }

    @Test func yesterdayOutsideTheWindowIsNotAsked() {
        // POD 1 is 03-03: yesterday, 03-02, is the day of surgery.
        #expect(missing(at: "2026-03-03T22:00:00+01:00", activated: "2026-03-01T10:00:00+01:00") == [check(0, .morning),
                                                                                                     check(0, .evening)])
    }

    @Test func onlyAPatientInMonitoringHasMissingChecks() {
        #expect(missing(at: "2026-03-02T22:00:00+01:00", activated: "2026-03-01T10:00:00+01:00").isEmpty, "before monitoring")
        #expect(missing(at: "2026-03-07T22:00:00+01:00", activated: nil).isEmpty, "not activated")
        #expect(missing(at: "2026-03-17T22:00:00+01:00").isEmpty, "finished, yesterday was POD 14")
        let withdrawn = patient(at: "2026-03-07T22:00:00+01:00", withdrawalDate: "2026-03-10")
        #expect(rules.missingChecks(of: withdrawn, completed: [:], now: Fixtures.time("2026-03-07T22:00:00+01:00").epochSeconds).isEmpty)
    }
}
