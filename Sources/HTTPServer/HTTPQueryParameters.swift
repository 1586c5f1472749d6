/// The decoded query string of a request: `name=value` pairs in the order sent.
///
/// Repeated names are kept (`?tag=a&tag=b`); names are case-sensitive. A name without `=`
/// has the empty value.
public struct HTTPQueryParameters: Sendable, Equatable, Sequence {
    /// One `name=value` pair after percent-decoding (and `+` → space).
    public struct Item: Sendable, Equatable {
        /// The decoded name.
        public let name: String
        /// The decoded value (empty when the pair had no `=`).
        public let value: String

        /// Builds a pair.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// All pairs in order.
    public let items: [Item]

    /// Wraps decoded pairs.
    public init(_ items: [Item] = []) { self.items = items }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? { items.first { $0.name == name }?.value }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }

    /// Whether there are no parameters.
    public var isEmpty: Bool { items.isEmpty }

    /// Iterates the pairs in order.
    public func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }
}
