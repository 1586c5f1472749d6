import Foundation
import HTJSON
import HyponaTrackCore
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// `Retry-After` as webhook receivers send it (seconds or any of the three HTTP date forms).
extension HookTransportTests {
    // MARK: - Retry-After parsing

    @Suite struct RetryAfterParsing {
        @Test func deltaSecondsAndAllThreeHTTPDateForms() {
            let now = RetryAfter.daysFromCivil(year: 1994, month: 11, day: 6) * 86_400 + 8 * 3600 + 49 * 60 + 7
            #expect(RetryAfter.seconds("120", now: now) == 120)
            #expect(RetryAfter.seconds(" 0 ", now: now) == 0)
            #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 30)
            #expect(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 30)
            #expect(RetryAfter.seconds("Sun Nov  6 08:49:37 1994", now: now) == 30)
            #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)   // past: now
            #expect(RetryAfter.seconds("-5", now: now) == nil)
            #expect(RetryAfter.seconds("soon", now: now) == nil)
            #expect(RetryAfter.seconds("Sun, 06 Foo 1994 08:49:37 GMT", now: now) == nil)
            #expect(RetryAfter.httpDate("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        }
    }
}
