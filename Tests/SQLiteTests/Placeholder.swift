import Testing
@Test func placeholderSQLite() { #expect(Bool(true)) }
