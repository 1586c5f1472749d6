extension Dictionary {
    /// Sets `value` for `key`; a new key in a table that already holds `capacity` entries first
    /// empties it (the in-memory caches start over rather than grow: a miss costs one read).
    mutating func set(_ value: Value, forKey key: Key, capacity: Int) {
        if count >= capacity, self[key] == nil { removeAll(keepingCapacity: true) }
        self[key] = value
    }
}
