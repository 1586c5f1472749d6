import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// A service that records its calls; one that ignores stop requests runs until `release()`.
final class RecordingService: BackgroundService {
    let name: String
    let stopDeadline: Double
    let journal: Journal
    let ignoresStop: Bool
    private let signal = StopSignal()
    private let released = StopSignal()

    init(_ name: String, journal: Journal, stopDeadline: Double = 10, ignoresStop: Bool = false) {
        self.name = name
        self.journal = journal
        self.stopDeadline = stopDeadline
        self.ignoresStop = ignoresStop
    }

    func run() {
        (ignoresStop ? released : signal).waitForStop()
        journal.add("returned \(name)")
    }

    func requestStop() {
        journal.add("stop \(name)")
        signal.requestStop()
    }

    /// Lets a service that ignores stop requests return at last.
    func release() { released.requestStop() }
}

@Suite struct ServiceGroupTests {
    @Test func servicesStartInOrderAndStopInReverseEachAfterTheLaterOneReturned() {
        let log = CapturedLog(), journal = Journal()
        let group = ServiceGroup(["delivery", "sync", "scheduler", "http"].map { RecordingService($0, journal: journal) },
                                 logger: log.logger)
        group.start()
        #expect(log.services("service started") == ["delivery", "sync", "scheduler", "http"])
        #expect(group.stop().isEmpty)
        #expect(journal.all == ["stop http", "returned http", "stop scheduler", "returned scheduler",
                                "stop sync", "returned sync", "stop delivery", "returned delivery"])
        #expect(log.services("service stopped") == ["http", "scheduler", "sync", "delivery"])
    }

    @Test func aServiceThatIgnoresStopIsReportedAfterItsDeadlineAndTheOthersStillStop() {
        let log = CapturedLog(), journal = Journal()
        let stuck = RecordingService("stuck", journal: journal, stopDeadline: 0.2, ignoresStop: true)
        defer { stuck.release() }
        let group = ServiceGroup([RecordingService("first", journal: journal), stuck, RecordingService("last", journal: journal)],
                                 logger: log.logger)
        group.start()
        #expect(group.stop() == ["stuck"])
        #expect(journal.all == ["stop last", "returned last", "stop stuck", "stop first", "returned first"])
        #expect(log.services("service did not stop within its deadline; carrying on without it") == ["stuck"])
        #expect(log.all.contains { $0.contains("level=error") && $0.contains("service=stuck") && $0.contains("deadline_s=0.2") })
        #expect(log.services("service stopped") == ["last", "first"])
    }

    @Test func peersStoppedTogetherAreAllAskedBeforeAnyIsWaitedFor() {
        let log = CapturedLog(), journal = Journal()
        let stuck = RecordingService("hook-a", journal: journal, stopDeadline: 0.2, ignoresStop: true)
        defer { stuck.release() }
        let group = ServiceGroup([stuck, RecordingService("hook-b", journal: journal)], order: .together, logger: log.logger)
        group.start()
        #expect(group.stop() == ["hook-a"])
        #expect(Array(journal.all.prefix(2)) == ["stop hook-a", "stop hook-b"])
        #expect(journal.all.contains("returned hook-b"))
    }

    @Test func aGroupNeverStartedHasNothingToStopAndCannotStartAfterwards() {
        let log = CapturedLog(), journal = Journal()
        let group = ServiceGroup([RecordingService("a", journal: journal)], logger: log.logger)
        #expect(group.stop().isEmpty)
        group.start()
        #expect(journal.all.isEmpty)
        #expect(log.all.isEmpty)
    }

    @Test func aServiceWhoseRunReturnsOnItsOwnIsReportedAsFinishedEarly() {
        let log = CapturedLog(), journal = Journal()
        let quitter = RecordingService("quitter", journal: journal)
        let group = ServiceGroup([RecordingService("steady", journal: journal), quitter], logger: log.logger)
        #expect(group.finishedEarly.isEmpty)
        group.start()
        #expect(group.finishedEarly.isEmpty)
        quitter.requestStop()  // not through the group: as if its loop had ended by itself
        let deadline = MonotonicDeadline.after(seconds: 10)
        while group.finishedEarly.isEmpty && !deadline.hasPassed { _ = StopSignal().pause(seconds: 0.01) }
        #expect(group.finishedEarly == ["quitter"])
        group.stop()
        #expect(group.finishedEarly.isEmpty, "after a stop every service has finished, none early")
    }

    @Test func startingTwiceRunsEachServiceOnce() {
        let log = CapturedLog(), journal = Journal()
        let group = ServiceGroup([RecordingService("a", journal: journal)], logger: log.logger)
        group.start()
        group.start()
        group.stop()
        #expect(journal.all == ["stop a", "returned a"])
        #expect(log.services("service started") == ["a"])
    }
}
