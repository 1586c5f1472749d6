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
