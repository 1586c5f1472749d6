import Foundation

/// A Swift value that can be bound to a statement parameter.
///
/// Callers pass heterogeneous arguments as `[(any SQLiteBindable)?]`, so
/// `try db.execute("INSERT INTO t(a, b, c) VALUES (?, ?, ?)", ["x", 3, nil])` works with
/// literals, variables and optionals alike; `nil` binds SQL NULL.
public protocol SQLiteBindable: Sendable {
    /// The value to bind.
    var sqliteValue: SQLiteValue { get }
}

/// A Swift value that can be read from a result column.
///
/// Conversions are strict so that a schema mistake surfaces as an error rather than as a
/// silently coerced number: integers decode only from INTEGER, text only from TEXT, blobs
/// only from BLOB. `Double` also accepts INTEGER, because SQLite may store an integral REAL as
/// an integer ("as an internal optimization, small floating point values with no fractional
/// component and stored in columns with REAL type affinity are written to disk as integers",
/// https://sqlite.org/datatype3.html#type_affinity).
public protocol SQLiteDecodable {
    /// The decoded value, or nil when `value`'s storage class does not fit this type.
    /// NULL is handled by `Row` before this is called.
    static func decode(from value: SQLiteValue) -> Self?
}

/// Both directions.
public typealias SQLiteValueConvertible = SQLiteBindable & SQLiteDecodable

extension SQLiteValue: SQLiteBindable {
    public var sqliteValue: SQLiteValue { self }
}

extension Int64: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self) }
    public static func decode(from value: SQLiteValue) -> Int64? {
        if case .integer(let v) = value { return v }
        return nil
    }
}

extension Int: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    public static func decode(from value: SQLiteValue) -> Int? {
        if case .integer(let v) = value { return Int(exactly: v) }
        return nil
    }
}

extension Int32: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    public static func decode(from value: SQLiteValue) -> Int32? {
        if case .integer(let v) = value { return Int32(exactly: v) }
        return nil
    }
}

extension Double: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .real(self) }
    public static func decode(from value: SQLiteValue) -> Double? {
        switch value {
        case .real(let v): return v
        case .integer(let v): return Double(v)
        default: return nil
        }
    }
}

/// Booleans are stored as the integers 0 and 1 (SQLite has no boolean class,
/// https://sqlite.org/datatype3.html#boolean_datatype).
extension Bool: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    public static func decode(from value: SQLiteValue) -> Bool? {
        if case .integer(let v) = value { return v != 0 }
        return nil
    }
}

extension String: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(self) }
    public static func decode(from value: SQLiteValue) -> String? {
        if case .text(let v) = value { return v }
        return nil
    }
}

extension Array: SQLiteBindable where Element == UInt8 {
    public var sqliteValue: SQLiteValue { .blob(self) }
}

extension Array: SQLiteDecodable where Element == UInt8 {
    public static func decode(from value: SQLiteValue) -> [UInt8]? {
        if case .blob(let v) = value { return v }
        return nil
    }
}

extension Data: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .blob([UInt8](self)) }
    public static func decode(from value: SQLiteValue) -> Data? {
        if case .blob(let v) = value { return Data(v) }
        return nil
    }
}
