import SQLite

/// The result of recomputing the audit chain.
public struct AuditVerification: Sendable, Equatable {
    /// Rows read, up to and including the first broken one.
    public let rowsChecked: Int
    /// The `seq` of the first row that does not verify, or nil if the whole chain does.
    public let firstBrokenSeq: Int64?
    /// Why that row fails, for the operator; nil when the chain verifies.
    public let reason: String?
    /// `seq` and `hash` of the last row checked (the chain head when the chain verifies), to note
    /// as a checkpoint: a chain alone cannot show that rows were cut off its end.
    public let lastSeq: Int64?
    public let lastHash: String?
    /// The comparison with a checkpoint, when one was given.
    public let checkpoint: CheckpointComparison?

    /// A checkpoint held against the chain.
    public struct CheckpointComparison: Sendable, Equatable {
        public let checkpoint: AuditCheckpoint
        /// Whether the verified chain up to `checkpoint.seq` ends in `checkpoint.hash`.
        public let matches: Bool
        /// Why not; nil when it matches.
        public let reason: String?
    }

    /// Whether every row verified (checkpoint aside).
    public var chainIntact: Bool { firstBrokenSeq == nil }

    /// Whether every row verified and the chain matches the checkpoint, if one was given.
    public var isIntact: Bool { chainIntact && checkpoint?.matches != false }
}

extension AuditLog {
    /// Recomputes the whole chain under `key` from the first row and stops at the first row that
    /// fails: its `seq` does not follow the previous one (a row deleted, or the first one
    /// missing), its `prev_hash` is not the previous row's `hash` (a row deleted or reordered),
    /// or its `hash` does not match its content (any field edited, or the rows re-hashed
    /// without the key). With a `checkpoint`, also whether the chain up to its `seq` ends in its
    /// `hash` (so rows rewritten by someone holding the key, or cut off the end, are caught).
    ///
    /// Reads the rows with one statement, step by step: memory stays constant however long the
    /// trail. Run it inside one read transaction so it sees a single snapshot, on a long-read
    /// connection (`Database.longRead`), never on the readers that authentication needs.
    public static func verify(_ db: Connection, key: AuditKey, checkpoint: AuditCheckpoint? = nil) throws -> AuditVerification {
        try verify(db, scheme: .keyed(key), checkpoint: checkpoint)
    }

    static func verify(_ db: Connection, scheme: AuditChain.Scheme, checkpoint: AuditCheckpoint? = nil) throws -> AuditVerification {
        var checked = 0
        var expectedSeq: Int64 = 1
        var previousHash = AuditChain.genesisHash
        var lastSeq: Int64?
        var broken: (seq: Int64, hash: String, reason: String)?
        var hashAtCheckpoint: String?
        // In seq order from the lowest stored seq (not from 1), so a stray row with a seq below 1
        // or inside a gap is read and reported rather than skipped.
        try AuditRepository.forEachEntry(db) { entry in
            checked += 1
            if entry.seq != expectedSeq {
                broken = (entry.seq, entry.hash, "expected seq \(expectedSeq) but found \(entry.seq): rows are missing")
            } else if entry.prevHash != previousHash {
                broken = (entry.seq, entry.hash, "prev_hash does not match the hash of the row before it (a row was removed or reordered)")
            } else if AuditChain.hash(scheme, of: entry, prevHash: entry.prevHash) != entry.hash {
                broken = (entry.seq, entry.hash,
                          "hash does not match the row's content under the audit key (the row was modified, or re-hashed without the key)")
            }
            if broken != nil { return false }
            if entry.seq == checkpoint?.seq { hashAtCheckpoint = entry.hash }
            previousHash = entry.hash
            lastSeq = entry.seq
            expectedSeq = entry.seq + 1
            return true
        }
        let comparison = checkpoint.map { compare($0, hashAtCheckpoint: hashAtCheckpoint, brokenAt: broken?.seq, lastSeq: lastSeq) }
        if let broken {
            return AuditVerification(rowsChecked: checked, firstBrokenSeq: broken.seq, reason: broken.reason,
                                     lastSeq: broken.seq, lastHash: broken.hash, checkpoint: comparison)
        }
        return AuditVerification(rowsChecked: checked, firstBrokenSeq: nil, reason: nil,
                                 lastSeq: lastSeq, lastHash: lastSeq == nil ? nil : previousHash, checkpoint: comparison)
    }

    private static func compare(_ checkpoint: AuditCheckpoint, hashAtCheckpoint: String?, brokenAt: Int64?,
                                lastSeq: Int64?) -> AuditVerification.CheckpointComparison {
        func no(_ reason: String) -> AuditVerification.CheckpointComparison {
            .init(checkpoint: checkpoint, matches: false, reason: reason)
        }
        if let brokenAt, brokenAt <= checkpoint.seq {
            return no("the chain is broken at row \(brokenAt), at or before the checkpoint's row \(checkpoint.seq)")
        }
        guard let hashAtCheckpoint else {
            return no("the trail ends at row \(lastSeq ?? 0), before the checkpoint's row \(checkpoint.seq): rows were cut off its end")
        }
        guard hashAtCheckpoint == checkpoint.hash else {
            return no("row \(checkpoint.seq) has hash \(hashAtCheckpoint), not the checkpoint's: the trail up to the checkpoint was rewritten")
        }
        return .init(checkpoint: checkpoint, matches: true, reason: nil)
    }
}
