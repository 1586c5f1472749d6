import HTJSON
import SQLite

/// Writing and reading the audit trail (`audit_log`, see `AuditSchema` and `AuditChain`).
///
/// `append` must run inside the same write transaction as the change it records (the
/// group-commit job), so a change and its audit row commit or vanish together, and so the
/// read of the last hash and the insert are atomic. It never begins or commits. It signs with
/// the `AuditKey` attached to the connection (`Database` attaches it to its writer), so the
/// many services that append need not carry the key; a connection without one is refused.
///
/// Never put secrets in `details`: no tokens, no activation codes — only the fact (e.g.
/// `{"studyId": "HT-007"}`). The trail is read by staff and copied into backups.
public enum AuditLog {
    /// Appends one entry chained to the current last one and returns it.
    ///
    /// - Parameters:
    ///   - at: ms since the epoch (`epochMilliseconds(clock.now())`).
    ///   - actor: `staff:<name>`, `patient:<studyId>` or `system` (see `Principal.auditActor`).
    ///   - action: what happened (`AuditAction`; stored as its dotted verb, e.g. `patient.enroll`).
    ///   - subject: what it concerns, usually the study ID or staff name; nil if nothing.
    ///   - details: what changed (before/after for corrections), a typed value (`AuditDetails`);
    ///     written once as JSON text with `JSONTextEncoder` (members in declaration order) and
    ///     stored and hashed as that exact text.
    @discardableResult
    public static func append(_ db: Connection, at: Int64, actor: String, action auditAction: AuditAction,
                              subject: String?, details: some Encodable) throws -> AuditEntry {
        try append(db, at: at, actor: actor, action: auditAction, subject: subject, detailsText: JSONTextEncoder.string(details))
    }

    /// Appends one entry whose details are already JSON text (written with `JSONTextEncoder`).
    @discardableResult
    public static func append(_ db: Connection, at: Int64, actor: String, action auditAction: AuditAction,
                              subject: String?, detailsText: String) throws -> AuditEntry {
        guard let key = db.attachment(AuditKey.self) else {
            throw SQLiteError(extendedCode: SQLiteError.Code.misuse, message: "no audit key is attached to this connection: audit rows cannot be signed")
        }
        let action = auditAction.rawValue
        // The chain head: remembered by the writer connection (`AuditHead`), else read.
        let memo = db.attachment(AuditHead.self)
        let head = try memo?.current(db) ?? AuditRepository.head(db)
        let seq = (head?.seq ?? 0) + 1
        let prevHash = head?.hash ?? AuditChain.genesisHash
        let hash = AuditChain.hash(.keyed(key), prevHash: prevHash, seq: seq, at: at, actor: actor, action: action,
                                   subject: subject, details: detailsText)
        do {
            try AuditRepository.insert(db, seq: seq, at: at, actor: actor, action: action, subject: subject, details: detailsText,
                                       prevHash: prevHash, hash: hash)
        } catch {
            memo?.forget()
            throw error
        }
        memo?.remember(seq: seq, hash: hash, db)
        return AuditEntry(seq: seq, at: at, actor: actor, action: action, subject: subject, detailsText: detailsText,
                          prevHash: prevHash, hash: hash)
    }

    /// Entries in chain order: those after `afterSeq` (for paging; nil = from the start),
    /// optionally only those whose subject equals `subject`, at most `limit` (clamped to
    /// 1...1000).
    public static func list(_ db: Connection, limit: Int = 100, afterSeq: Int64? = nil,
                            subject: String? = nil, scope: SiteScope = .allSites, reader: String? = nil) throws -> [AuditEntry] {
        try AuditRepository.entries(db, after: afterSeq ?? 0, subject: subject, limit: min(max(limit, 1), 1000),
                                    scope: scope, reader: reader)
    }

    /// The newest entry, or nil for an empty trail. Its `seq` and `hash`, noted somewhere
    /// else, let a later `verify` also notice rows cut off the end.
    public static func last(_ db: Connection) throws -> AuditEntry? {
        try AuditRepository.last(db)
    }
}
