import Testing
@Test func placeholderHTJSONTests() { #expect(Bool(true)) }
