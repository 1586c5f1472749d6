/// Prepared statements of one connection keyed by SQL text, so hot statements (INSERT of a
/// measurement, BEGIN IMMEDIATE, SAVEPOINT, COMMIT) are compiled once.
///
/// Eviction is deliberately simple: when full, the whole cache is dropped and refills with
/// what is hot. The server issues a few dozen distinct statements, so this almost never runs;
/// it only bounds memory if a caller builds SQL dynamically.
struct StatementCache {
    let capacity: Int
    private var statements: [Key: Statement] = [:]

    /// The SQL text as a key that hashes its length and at most 64 of its bytes (the first 24
    /// and the last 40) instead of all of them: every statement a request runs is looked up
    /// here, and hashing whole statements had cost more than a third of the lookups' time.
    /// Equality still compares the whole text, so texts that hash alike only share a bucket.
    struct Key: Hashable {
        let sql: String

        static func == (a: Key, b: Key) -> Bool { a.sql == b.sql }

        func hash(into hasher: inout Hasher) {
            var sql = sql
            sql.withUTF8 { (bytes: UnsafeBufferPointer<UInt8>) in
                let raw = UnsafeRawBufferPointer(bytes)
                hasher.combine(raw.count)
                if raw.count <= 64 {
                    hasher.combine(bytes: raw)
                } else {
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[..<24]))
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[(raw.count - 40)...]))
                }
            }
        }
    }

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    subscript(sql: String) -> Statement? {
        get { statements[Key(sql: sql)] }
        set {
            guard capacity > 0 else { return }
            let key = Key(sql: sql)
            if newValue != nil, statements[key] == nil, statements.count >= capacity {
                statements.removeAll()
            }
            statements[key] = newValue
        }
    }

    /// Drops every statement; each is finalized when its last reference goes.
    mutating func removeAll() {
        statements.removeAll()
    }
}
