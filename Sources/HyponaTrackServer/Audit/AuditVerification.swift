import SQLite

/// The result of recomputing the audit chain.
public struct AuditVerification: Sendable, Equatable {
    /// Rows read, up to and including the first broken one.
    public let rowsChecked: Int
    /// The `seq` of the first row that does not verify, or nil if the whole chain does.
    public let firstBrokenSeq: Int64?
    /// Why that row fails, for the operator; nil when the chain verifies.
    public let reason: String?
    /// `seq` and `hash` of the last row checked (the chain head when `isIntact`), to note as a
    /// checkpoint: a chain alone cannot show that rows were cut off its end.
    public let lastSeq: Int64?
    public let lastHash: String?

    /// Whether every row verified.
    public var isIntact: Bool { firstBrokenSeq == nil }
}

extension AuditLog {
    /// Rows per read while verifying, so a long trail is never held in memory at once.
    static let verifyPageSize = 500

    /// Recomputes the whole chain from the first row and stops at the first row that fails:
    /// its `seq` does not follow the previous one (a row deleted, or the first one missing),
    /// its `prev_hash` is not the previous row's `hash` (a row deleted or reordered), or its
    /// `hash` does not match its content (any field edited). Run it inside one read
    /// transaction so it sees a single snapshot.
    public static func verify(_ db: Connection) throws -> AuditVerification {
        var checked = 0
        var expectedSeq: Int64 = 1
        var previousHash = AuditChain.genesisHash
        var lastSeq: Int64?
        // Paged by the last seq seen (not by the expected one), so a stray row with a seq
        // below 1 or inside a gap is read and reported rather than skipped.
        var cursor = Int64.min
        while true {
            let rows = try AuditRepository.entries(db, after: cursor, subject: nil, limit: verifyPageSize)
            for entry in rows {
                checked += 1
                cursor = entry.seq
                func broken(_ reason: String) -> AuditVerification {
                    AuditVerification(rowsChecked: checked, firstBrokenSeq: entry.seq, reason: reason,
                                      lastSeq: entry.seq, lastHash: entry.hash)
                }
                if entry.seq != expectedSeq {
                    return broken("expected seq \(expectedSeq) but found \(entry.seq): rows are missing")
                }
                if entry.prevHash != previousHash {
                    return broken("prev_hash does not match the hash of the row before it (a row was removed or reordered)")
                }
                let recomputed = AuditChain.hash(prevHash: entry.prevHash, seq: entry.seq, at: entry.at,
                                                 actor: entry.actor, action: entry.action,
                                                 subject: entry.subject, details: entry.detailsText)
                if recomputed != entry.hash {
                    return broken("hash does not match the row's content (the row was modified)")
                }
                previousHash = entry.hash
                lastSeq = entry.seq
                expectedSeq = entry.seq + 1
            }
            if rows.count < verifyPageSize { break }
        }
        return AuditVerification(rowsChecked: checked, firstBrokenSeq: nil, reason: nil,
                                 lastSeq: lastSeq, lastHash: lastSeq == nil ? nil : previousHash)
    }
}
