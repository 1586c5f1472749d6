import Testing
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// An alert's reasons as a later evaluation adds to them: red first, whatever joined when.
@Suite struct StoredReasonMergeTests {
    static func r(_ code: String, _ level: Level) -> StoredReason { StoredReason(code: code, level: level, value: nil, threshold: nil) }

    @Test func aRedReasonThatJoinsLaterIsListedBeforeTheYellowOnes() {
        let merged = StoredReason.merge([Self.r("weight_gain_pct", .yellow), Self.r("vomiting", .yellow)],
                                        [Self.r("confusion", .red), Self.r("vomiting", .red), Self.r("headache", .yellow)])
        #expect(merged.map(\.code) == ["vomiting", "confusion", "weight_gain_pct", "headache"], "first-seen order within a level")
        #expect(merged.map(\.level) == [.red, .red, .yellow, .yellow], "vomiting kept at its higher level")
    }
}
