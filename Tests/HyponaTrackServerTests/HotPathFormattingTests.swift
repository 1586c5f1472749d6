import HTJSON
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The formatters every request goes through, rewritten for speed, keep their exact output.
@Suite struct HotPathFormattingTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_764_660_000_123, "2025-12-02T07:20:00.123Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (4_102_444_799_999, "2099-12-31T23:59:59.999Z"),
    ])
    func iso8601UTCIsCivilTimeWithMilliseconds(ms: Int64, expected: String) {
        #expect(iso8601UTC(milliseconds: ms) == expected)
    }

    @Test func logValuesAreBareOnlyWhenSafe() {
        #expect(Logger.quote("ready") == "ready")
        #expect(Logger.quote("/v1/me/days/{date}") == "/v1/me/days/{date}")
        #expect(Logger.quote("staff:nurse.anna@ward-3+x") == "staff:nurse.anna@ward-3+x")
        #expect(Logger.quote("") == "\"\"")
        #expect(Logger.quote("two words") == "\"two words\"")
        #expect(Logger.quote("a\"b\\c\nd") == "\"a\\\"b\\\\c\\nd\"")
        #expect(Logger.quote("Müller") == "\"Müller\"")
        #expect(Logger.quote("x=1") == "\"x=1\"")
    }

    @Test(arguments: [(UInt64(0), "0.00"), (4_999, "0.00"), (5_000, "0.01"), (1_234_567, "1.23"),
                      (9_995_000, "10.00"), (120_050_000, "120.05")])
    func durationsAreMillisecondsWithTwoDecimals(nanoseconds: UInt64, expected: String) {
        #expect(Router.milliseconds(nanoseconds: nanoseconds) == expected)
    }
}
