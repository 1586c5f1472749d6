/// What identifies a column of a `Row`: its 0-based index (`Int`) or its name (`String`).
/// Lets the typed getters take either: `row.string("study_id")`, `row.int64(0)`.
public protocol SQLiteColumnKey: Sendable, CustomStringConvertible {
    /// The index of this column in `row`, or nil if the row has no such column.
    func columnIndex(in row: Row) -> Int?
}

extension Int: SQLiteColumnKey {
    public func columnIndex(in row: Row) -> Int? {
        row.values.indices.contains(self) ? self : nil
    }
}

extension String: SQLiteColumnKey {
    public func columnIndex(in row: Row) -> Int? {
        row.columnIndex(named: self)
    }
}
