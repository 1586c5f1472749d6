import Testing
@Test func placeholderHTTPClientTests() { #expect(Bool(true)) }
