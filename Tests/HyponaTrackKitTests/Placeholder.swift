import Testing
@Test func placeholderHyponaTrackKitTests() { #expect(Bool(true)) }
