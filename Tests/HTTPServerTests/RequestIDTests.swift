@testable import HTTPServer
import Testing

@Suite struct RequestIDTests {
    @Test func idsAreSixteenHexDigitsAndNeverRepeatAcrossRefills() {
        // 1,500 ids draw the random pool three times (512 per draw).
        let ids = (0..<1500).map { _ in RequestID.make() }
        #expect(ids.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isHexDigit) && $0 == $0.lowercased() })
        #expect(Set(ids).count == ids.count)
        // Random, not a counter or zeros: the ids spread over the whole range.
        let high = ids.filter { $0.first! >= "8" }.count
        #expect((500...1000).contains(high), "\(high) of 1500 ids have the top bit set")
    }
}
