/// Prepared statements of one connection keyed by SQL text, so hot statements (INSERT of a
/// measurement, BEGIN IMMEDIATE, SAVEPOINT, COMMIT) are compiled once.
///
/// Eviction is deliberately simple: when full, the whole cache is dropped and refills with
/// what is hot. The server issues a few dozen distinct statements, so this almost never runs;
/// it only bounds memory if a caller builds SQL dynamically.
struct StatementCache {
    let capacity: Int
    private var statements: [String: Statement] = [:]

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    subscript(sql: String) -> Statement? {
        get { statements[sql] }
        set {
            guard capacity > 0 else { return }
            if newValue != nil, statements[sql] == nil, statements.count >= capacity {
                statements.removeAll()
            }
            statements[sql] = newValue
        }
    }

    /// Drops every statement; each is finalized when its last reference goes.
    mutating func removeAll() {
        statements.removeAll()
    }
}
