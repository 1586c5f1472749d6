import Testing
@Test func placeholderHyponaTrackCoreTests() { #expect(Bool(true)) }
