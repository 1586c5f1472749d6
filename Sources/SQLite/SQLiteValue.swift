/// One SQLite value, in one of the five storage classes
/// (https://sqlite.org/datatype3.html#storage_classes_and_datatypes).
public enum SQLiteValue: Sendable, Hashable {
    /// A signed 64-bit integer.
    case integer(Int64)
    /// An IEEE 754 double. Note that SQLite stores NaN as NULL.
    case real(Double)
    /// UTF-8 text; may contain U+0000, which is bound and read with explicit lengths.
    case text(String)
    /// Bytes. An empty blob stays a (zero-length) blob, distinct from NULL.
    case blob([UInt8])
    /// SQL NULL.
    case null

    /// Whether this is SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The storage class name as SQLite's `typeof()` spells it, for messages.
    public var storageClass: String {
        switch self {
        case .integer: return "integer"
        case .real: return "real"
        case .text: return "text"
        case .blob: return "blob"
        case .null: return "null"
        }
    }
}
