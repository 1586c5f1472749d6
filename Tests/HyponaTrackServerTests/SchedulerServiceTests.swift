import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The scheduler as a background service, on the simulation's settable clock.
@Suite struct SchedulerServiceTests {
    @Test func theSchedulerTicksAtStartOnItsClockAndAStopCutsTheIntervalShort() throws {
        let start = Berlin.at("2026-03-09", "09:00")
        let sim = try Simulation(start: start)
        let log = CapturedLog()
        // An hour between ticks: a stop that waited out the interval would miss the 15 s deadline.
        let scheduler = Scheduler(database: sim.database, rules: sim.rules, alerting: sim.alerting, hooks: Simulation.hooks,
                                  logger: log.logger, interval: 3600, clock: sim.clock)
        #expect(try sim.database.read { try SchedulerRepository.lastTick($0) } == nil)
        let group = ServiceGroup([scheduler], logger: log.logger)
        group.start()
        #expect(group.stop().isEmpty)
        // run() ticks before it first waits, so the tick at start happened even with an immediate stop.
        #expect(try sim.database.read { try SchedulerRepository.lastTick($0) } == Berlin.ms(start))
        #expect(log.services("service stopped") == ["scheduler"])
    }

    /// The scheduler lists the patients before it opens each patient's transaction: a withdrawal
    /// in between must stop that patient's reminders and missing-data alerts all the same.
    @Test func aPatientWithdrawnAfterTheListWasReadGetsNothing() throws {
        let sim = try Simulation(start: Berlin.at("2026-03-04", "09:00"))
        let code = try sim.enroll("SCH-W", surgery: "2026-03-02")
        let id = try sim.activate("SCH-W", code: code)
        let listed = try #require(try sim.database.read { db in try PatientRepository.load(db, id: id) })
        try sim.withdraw("SCH-W")
        sim.skip(to: Berlin.at("2026-03-07", "00:30"))       // a no_data_2d and reminders would be due by now
        #expect(try !sim.scheduler.tick(listed, now: sim.clock.now(), snapshot: sim.rules.snapshot))
        #expect(try sim.alerts().isEmpty)
        #expect(try sim.reminders("SCH-W").isEmpty)
    }
}

/// A tick hands each patient to the group-commit writer as a job of its own, a few dozen at a
/// time: a reminder minute for many patients shares COMMITs (a tick that waited for each
/// patient's COMMIT paid one fsync per patient), and one patient's failure is theirs alone.
@Suite struct SchedulerTickTests {
    @Test func aTickOverManyPatientsSharesCommitsAndRemindsEveryOne() throws {
        let sim = try Simulation(start: Berlin.at("2026-03-04", "07:30"))
        let ids = (0..<64).map { "SCH-M\($0)" }
        for id in ids { _ = try sim.activate(id, code: try sim.enroll(id, surgery: "2026-03-02")) }
        let before = sim.database.writer.statistics.committedTransactions
        try sim.scheduler.tick(now: Berlin.at("2026-03-04", "08:00"))
        let commits = sim.database.writer.statistics.committedTransactions - before
        for id in ids { #expect(try sim.reminders(id).count == 1, "\(id): the 08:00 check reminder") }
        #expect(commits < 32, "\(commits) COMMITs for 64 patients")
    }

    @Test func aPatientWhoseTransactionFailsHoldsUpNoOneAndIsDecidedAtTheNextTick() throws {
        let sim = try Simulation(start: Berlin.at("2026-03-04", "07:30"))
        let ids = (0..<5).map { "SCH-F\($0)" }
        var patientIds: [Int64] = []
        for id in ids { patientIds.append(try sim.activate(id, code: try sim.enroll(id, surgery: "2026-03-02"))) }
        // A real failure inside the third patient's transaction, on the writer's own connection.
        try sim.database.write { db in
            try db.execute("""
                CREATE TEMP TRIGGER fail_one BEFORE INSERT ON main.scheduler_marks WHEN NEW.patient_id = \(patientIds[2])
                BEGIN SELECT RAISE(ABORT, 'injected failure'); END
                """)
        }
        #expect(throws: (any Error).self) { try sim.scheduler.tick(now: Berlin.at("2026-03-04", "08:00")) }
        for (n, id) in ids.enumerated() { #expect(try sim.reminders(id).count == (n == 2 ? 0 : 1), "\(id)") }
        try sim.database.write { db in try db.execute("DROP TRIGGER temp.fail_one") }
        try sim.scheduler.tick(now: Berlin.at("2026-03-04", "08:01"))
        for id in ids { #expect(try sim.reminders(id).count == 1, "\(id): once, the failed one a minute late") }
    }
}
