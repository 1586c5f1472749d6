/// One result row, copied out of the statement so it stays valid after the statement moves
/// on (and can be sent to other threads).
///
/// Typed getters are strict (see `SQLiteDecodable`): a NULL where a value is required, a
/// value of another storage class, or an unknown column throws an `SQLiteError`
/// (`SQLITE_MISMATCH` / `SQLITE_RANGE`) naming the column and the SQL.
public struct Row: Sendable {
    let layout: RowLayout
    /// The values, in column order.
    public let values: [SQLiteValue]

    init(layout: RowLayout, values: [SQLiteValue]) {
        self.layout = layout
        self.values = values
    }

    /// The column names, in order.
    public var columnNames: [String] { layout.names }

    /// The number of columns.
    public var count: Int { values.count }

    /// The index of the column called `name` (exact match first, then case-insensitive).
    public func columnIndex(named name: String) -> Int? { layout.index(of: name) }

    /// The raw value at a 0-based index. Traps if out of range, like an array.
    public subscript(index: Int) -> SQLiteValue { values[index] }

    /// The raw value of the named column, or nil if there is no such column.
    public subscript(name: String) -> SQLiteValue? {
        layout.index(of: name).map { values[$0] }
    }

    /// The raw value of a column; throws if there is no such column.
    public func value(_ column: some SQLiteColumnKey) throws -> SQLiteValue {
        guard let index = column.columnIndex(in: self) else {
            throw SQLiteError.range("no column \(Self.quoted(column)) in the result (columns: \(columnNames.joined(separator: ", ")))",
                                    sql: layout.sql)
        }
        return values[index]
    }

    /// A non-NULL value decoded as `T`.
    ///
    /// Inlinable, so a caller's getter is specialised for its concrete key and type: these run
    /// for every column of every row, and unspecialised they spent more time looking up generic
    /// metadata than reading values. The throwing path is out of line (`failure`).
    @inlinable
    public func get<T: SQLiteDecodable>(_ column: some SQLiteColumnKey, as type: T.Type = T.self) throws -> T {
        if let index = column.columnIndex(in: self), !values[index].isNull, let decoded = T.decode(from: values[index]) {
            return decoded
        }
        throw failure(column, expected: "\(T.self)", allowNull: false)
    }

    /// A value decoded as `T`, or nil for NULL.
    @inlinable
    public func getOptional<T: SQLiteDecodable>(_ column: some SQLiteColumnKey, as type: T.Type = T.self) throws -> T? {
        if let index = column.columnIndex(in: self) {
            if values[index].isNull { return nil }
            if let decoded = T.decode(from: values[index]) { return decoded }
        }
        throw failure(column, expected: "\(T.self)", allowNull: true)
    }

    /// Why `column` could not be read as `expected`: no such column, NULL, or another storage class.
    @usableFromInline
    func failure(_ column: some SQLiteColumnKey, expected: String, allowNull: Bool) -> SQLiteError {
        guard let index = column.columnIndex(in: self) else {
            return SQLiteError.range("no column \(Self.quoted(column)) in the result (columns: \(columnNames.joined(separator: ", ")))",
                                     sql: layout.sql)
        }
        let value = values[index]
        if value.isNull && !allowNull {
            return SQLiteError.mismatch("column \(Self.quoted(column)) is NULL, expected \(expected)", sql: layout.sql)
        }
        return SQLiteError.mismatch("column \(Self.quoted(column)) holds \(value.storageClass), expected \(expected)", sql: layout.sql)
    }

    // MARK: Typed getters

    /// TEXT; throws on NULL.
    @inlinable
    public func string(_ column: some SQLiteColumnKey) throws -> String { try get(column) }
    /// TEXT or nil for NULL.
    @inlinable
    public func optionalString(_ column: some SQLiteColumnKey) throws -> String? { try getOptional(column) }
    /// INTEGER; throws on NULL.
    @inlinable
    public func int64(_ column: some SQLiteColumnKey) throws -> Int64 { try get(column) }
    /// INTEGER or nil for NULL.
    @inlinable
    public func optionalInt64(_ column: some SQLiteColumnKey) throws -> Int64? { try getOptional(column) }
    /// INTEGER as `Int`; throws on NULL.
    @inlinable
    public func int(_ column: some SQLiteColumnKey) throws -> Int { try get(column) }
    /// INTEGER as `Int`, or nil for NULL.
    @inlinable
    public func optionalInt(_ column: some SQLiteColumnKey) throws -> Int? { try getOptional(column) }
    /// REAL (or INTEGER); throws on NULL.
    @inlinable
    public func double(_ column: some SQLiteColumnKey) throws -> Double { try get(column) }
    /// REAL (or INTEGER), or nil for NULL.
    @inlinable
    public func optionalDouble(_ column: some SQLiteColumnKey) throws -> Double? { try getOptional(column) }
    /// BLOB; throws on NULL.
    @inlinable
    public func blob(_ column: some SQLiteColumnKey) throws -> [UInt8] { try get(column) }
    /// BLOB or nil for NULL.
    @inlinable
    public func optionalBlob(_ column: some SQLiteColumnKey) throws -> [UInt8]? { try getOptional(column) }
    /// INTEGER 0/non-zero as `Bool`; throws on NULL.
    @inlinable
    public func bool(_ column: some SQLiteColumnKey) throws -> Bool { try get(column) }
    /// INTEGER 0/non-zero as `Bool`, or nil for NULL.
    @inlinable
    public func optionalBool(_ column: some SQLiteColumnKey) throws -> Bool? { try getOptional(column) }

    // MARK: Internals

    private static func quoted(_ column: some SQLiteColumnKey) -> String {
        column is String ? "\"\(column)\"" : "#\(column)"
    }
}
