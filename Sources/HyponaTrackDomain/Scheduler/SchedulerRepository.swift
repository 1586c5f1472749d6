import HyponaTrackCore
import SQLite

/// Reads and writes `scheduler_marks`, `scheduler_daily_marks` and `scheduler_state`. Callers own the transaction.
enum SchedulerRepository {
    /// Whether the scheduler already decided `mark` for the patient's `date`.
    static func isMarked(_ db: Connection, patientId: Int64, date: LocalDate, mark: String) throws -> Bool {
        try db.queryOne("SELECT 1 FROM scheduler_marks WHERE patient_id = ? AND date = ? AND mark = ?",
                        [patientId, date.description, mark]) != nil
    }

    /// Records a decision and its outcome; the first one for a mark stays.
    static func mark(_ db: Connection, patientId: Int64, date: LocalDate, mark: String, outcome: String, at ms: Int64) throws {
        try db.execute("INSERT OR IGNORE INTO scheduler_marks (patient_id, date, mark, decided_at, outcome) VALUES (?, ?, ?, ?, ?)",
                       [patientId, date.description, mark, ms, outcome])
    }

    /// Records a study-wide decision for `date` (`scheduler_daily_marks`); false if it was
    /// already recorded, so the caller acts once.
    static func markDaily(_ db: Connection, date: LocalDate, mark: String, at ms: Int64) throws -> Bool {
        try db.execute("INSERT OR IGNORE INTO scheduler_daily_marks (date, mark, decided_at) VALUES (?, ?, ?)",
                       [date.description, mark, ms]) == 1
    }

    static func recordTick(_ db: Connection, at ms: Int64) throws {
        try db.execute("UPDATE scheduler_state SET last_tick_at = ? WHERE id = 1", [ms])
    }

    /// When the last pass finished (for `/health`); nil before the first.
    static func lastTick(_ db: Connection) throws -> Int64? {
        try db.queryOne("SELECT last_tick_at FROM scheduler_state WHERE id = 1")?.optionalInt64(0)
    }
}
