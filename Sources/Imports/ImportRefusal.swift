/// Why an import entry was not proposed (docs/product.md, "Import details").
public enum RefusalReason: String, Sendable, Equatable, CaseIterable {
    case unknownPatient = "unknown_patient"
    case otherCode = "other_code"
    case unit
    case status
    case outOfRange = "out_of_range"
    case noTime = "no_time"
    case outsideWindow = "outside_window"
    case duplicate
}

/// One entry of an import that was not proposed, and why.
public struct ImportRefusal: Sendable, Equatable {
    /// The entry's `fullUrl`, resource id or position (`entry[3]`).
    public var entry: String
    public var reason: RefusalReason
    public var detail: String
    /// The entry's place in the document (reports list refusals in document order).
    public var position: Int

    public init(entry: String, reason: RefusalReason, detail: String, position: Int = 0) {
        self.entry = entry
        self.reason = reason
        self.detail = detail
        self.position = position
    }
}

/// A file that cannot be read as what it claims to be (malformed JSON or XML, a truncated zip,
/// a Bundle of another type): the whole import is refused and nothing is proposed. `field`
/// names the offending member where there is one (`type`, `resourceType`).
public struct ImportFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String?
    public var message: String

    public init(field: String? = nil, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { (field.map { "\($0): " } ?? "") + message }
}
