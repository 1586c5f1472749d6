import SQLite

/// One row of the audit trail.
public struct AuditEntry: Sendable, Equatable {
    /// Position in the chain, from 1, without gaps.
    public let seq: Int64
    /// When, ms since the epoch.
    public let at: Int64
    /// `staff:<name>`, `patient:<studyId>` or `system`.
    public let actor: String
    /// What happened, e.g. `patient.enroll`, `activation.failure`.
    public let action: String
    /// What it happened to, usually a study ID or staff name.
    public let subject: String?
    /// The details as stored: JSON text, exactly what was hashed.
    public let detailsText: String
    /// The predecessor's hash (64 zeros for the first row).
    public let prevHash: String
    /// This row's hash.
    public let hash: String

    init(seq: Int64, at: Int64, actor: String, action: String, subject: String?, detailsText: String,
         prevHash: String, hash: String) {
        self.seq = seq
        self.at = at
        self.actor = actor
        self.action = action
        self.subject = subject
        self.detailsText = detailsText
        self.prevHash = prevHash
        self.hash = hash
    }

    init(row: Row) throws {
        seq = try row.int64("seq")
        at = try row.int64("at")
        actor = try row.string("actor")
        action = try row.string("action")
        subject = try row.optionalString("subject")
        detailsText = try row.string("details")
        prevHash = try row.string("prev_hash")
        hash = try row.string("hash")
    }
}
