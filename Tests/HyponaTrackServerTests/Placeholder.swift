import Testing
@Test func placeholderHyponaTrackServerTests() { #expect(Bool(true)) }
