import SQLite

/// The audit chain's last row as the writer connection last wrote it, so an append does not
/// read it back from the table (issue 11: two appends per day submission each read it).
///
/// Attached to the daemon's writer connection only (`Database`), which is the one connection
/// that appends while the daemon runs. Remembered after an insert and valid only while the
/// connection's `rollbackCount` has not moved: a rolled-back job or transaction takes its rows
/// with it, so after any rollback the head is read from the table again. Another process
/// appending meanwhile (it should not) makes the next insert fail on the taken `seq` instead of
/// forking the chain; the head is then forgotten and read again.
final class AuditHead {
    private var remembered: (seq: Int64, hash: String, rollbacks: UInt64)?

    /// The head, if it is still the one remembered.
    func current(_ db: Connection) -> (seq: Int64, hash: String)? {
        guard let r = remembered, r.rollbacks == db.rollbackCount else { return nil }
        return (r.seq, r.hash)
    }

    func remember(seq: Int64, hash: String, _ db: Connection) { remembered = (seq, hash, db.rollbackCount) }

    func forget() { remembered = nil }
}
