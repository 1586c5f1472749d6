/// A dictionary with a hard cap on its entries, for state kept in memory per client address or
/// per guessed study ID: a flood of new keys (many addresses, random IDs) cannot grow it without
/// limit.
///
/// When a new key arrives at capacity, room is made in two steps: first every entry `isIdle`
/// calls worthless is dropped (a full token bucket, a stale counter: forgetting it changes
/// nothing); if that frees nothing, the eighth of the entries that `rank` puts lowest is dropped.
/// Either step frees many slots at once, so the O(n) sweep is paid once per many insertions.
struct BoundedTable<Value> {
    let capacity: Int
    private(set) var entries: [String: Value] = [:]

    init(capacity: Int) {
        precondition(capacity > 0, "a bounded table needs room for one entry")
        self.capacity = capacity
    }

    var count: Int { entries.count }

    subscript(key: String) -> Value? { entries[key] }

    mutating func removeValue(forKey key: String) { entries.removeValue(forKey: key) }

    /// Stores `value` under `key`, making room first when `key` is new and the table is full.
    ///
    /// - Parameters:
    ///   - isIdle: whether an entry may be forgotten without changing any answer.
    ///   - rank: how much an entry is worth keeping; the lowest go first when nothing is idle.
    mutating func set(_ key: String, _ value: Value, isIdle: (Value) -> Bool, rank: (Value) -> Double) {
        if entries[key] == nil, entries.count >= capacity {
            entries = entries.filter { !isIdle($0.value) }
            if entries.count >= capacity {
                let doomed = entries.map { (key: $0.key, rank: rank($0.value)) }.sorted { $0.rank < $1.rank }
                    .prefix(max(1, capacity / 8))
                for entry in doomed { entries.removeValue(forKey: entry.key) }
            }
        }
        entries[key] = value
    }
}
