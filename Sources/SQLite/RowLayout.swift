/// The column names of one result set, shared by all its rows (built once per query run).
final class RowLayout: Sendable {
    let names: [String]
    /// The statement text, for error messages about a column.
    let sql: String
    private let indexByName: [String: Int]
    private let indexByLowercasedName: [String: Int]

    init(names: [String], sql: String) {
        self.names = names
        self.sql = sql
        // With duplicate names (e.g. a join without aliases) the leftmost column wins.
        var exact: [String: Int] = [:]
        var folded: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            if exact[name] == nil { exact[name] = index }
            let lower = name.lowercased()
            if folded[lower] == nil { folded[lower] = index }
        }
        indexByName = exact
        indexByLowercasedName = folded
    }

    /// Exact match first, then case-insensitive, as SQL identifiers are case-insensitive.
    func index(of name: String) -> Int? {
        indexByName[name] ?? indexByLowercasedName[name.lowercased()]
    }
}
