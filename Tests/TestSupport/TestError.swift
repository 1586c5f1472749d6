/// A test's own failure, with what it found.
struct TestError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
