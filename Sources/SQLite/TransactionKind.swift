/// How `BEGIN` acquires locks (https://sqlite.org/lang_transaction.html).
public enum TransactionKind: String, Sendable {
    /// `BEGIN DEFERRED`: no lock until the first read; the first write then upgrades, and that
    /// upgrade can fail with SQLITE_BUSY *without* waiting for the busy timeout if another
    /// connection wrote meanwhile. Use only for read-only transactions (a consistent snapshot).
    case deferred = "DEFERRED"
    /// `BEGIN IMMEDIATE`: takes the write lock at once (waiting up to the busy timeout), so
    /// the transaction cannot fail later for lack of it. Use for every write.
    case immediate = "IMMEDIATE"
    /// `BEGIN EXCLUSIVE`: in WAL mode the same as IMMEDIATE; in other modes also keeps readers out.
    case exclusive = "EXCLUSIVE"
}
