import SQLite

/// The one-row `heartbeat` table: `/healthz` proves the database takes a durable write.
enum HeartbeatRepository {
    static func beat(_ db: Connection, at ms: Int64) throws {
        try db.execute("INSERT INTO heartbeat (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at", [ms])
    }
}
