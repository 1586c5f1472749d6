import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The one pause rule for failures that go on (GrowingPause): doubling from the first pause to
/// the cap, back to the start after a success.
@Suite struct GrowingPauseTests {
    @Test func thePauseDoublesToItsCapAndStartsOverAfterASuccess() {
        var pause = GrowingPause(first: 5, cap: 60)
        #expect((1...6).map { _ in pause.failed() } == [5, 10, 20, 40, 60, 60])
        #expect(pause.failures == 6)
        #expect(pause.succeeded() == 6, "the success reports the failures it ends")
        #expect(pause.succeeded() == 0)
        #expect(pause.failed() == 5)
    }

    @Test func thousandsOfFailuresInARowStayAtTheCap() {
        var pause = GrowingPause(first: 1, cap: 60)
        for _ in 1..<5000 { _ = pause.failed() }
        #expect(pause.failed() == 60)
    }
}
