import Foundation
import HTJSON
import SQLite

/// Binds a database's audit chain to one key: migration `v5_audit_hmac` re-keys an older
/// unkeyed chain (once, at the first start with a key), and every later open checks that the
/// key is the one the chain was keyed with.
enum AuditKeyMigration {
    /// Rows re-hashed per read while re-keying (the rows of one page are read, then updated).
    static let pageSize = 500

    /// Migration `v5_audit_hmac`, inside the migrator's one immediate transaction, on the
    /// writer connection with the audit key attached (as `AuditLog.append` needs it too):
    ///
    /// 1. records the key's fingerprint (`audit_key`);
    /// 2. verifies the existing chain under the old unkeyed scheme (plain SHA-256). If it does
    ///    not verify, nothing is re-keyed: the migration throws, its transaction rolls back, the
    ///    daemon refuses to start and the database stays as the previous release left it (so
    ///    that release still runs on it, and its `audit verify` names the broken row). Re-hashing
    ///    a broken chain would make edited rows verify under the key: the evidence would be lost;
    /// 3. recomputes every row's `prev_hash` and `hash` under the key (the append-only triggers
    ///    are dropped for this and created again before COMMIT);
    /// 4. appends `audit.rekey` `{"rows": N, "oldHead": "SEQ:HEX"}` (under the key), so the
    ///    re-keying is in the trail and the old head can still be matched with a checkpoint
    ///    noted before the upgrade; and attaches an `AuditRekey` to the connection, for the
    ///    daemon to log once the migration has committed (`Database.auditRekey`).
    ///
    /// A chain that already holds an `audit.rekey` row is refused in step 2 even if it verifies:
    /// releases before this one never wrote that action, so such a chain was keyed once and has
    /// been turned back into the unkeyed form since — by someone without the key.
    ///
    /// On a new (empty) trail only step 1 happens.
    static func migrate(_ db: Connection) throws {
        guard let key = db.attachment(AuditKey.self) else {
            throw DaemonError("migration v5_audit_hmac needs the audit key attached to the connection")
        }
        let ms = epochMilliseconds(Date().timeIntervalSince1970)
        try db.execute(AuditSchema.v2)
        let old = try AuditLog.verify(db, scheme: .legacySHA256)
        guard old.chainIntact else {
            throw DaemonError("""
                the audit trail does not verify under the previous (unkeyed) scheme, so it was not re-keyed \
                (re-hashing it would hide the break): row \(old.firstBrokenSeq.map(String.init) ?? "?"): \(old.reason ?? "?"). \
                Nothing was changed; the previous release still runs on this database. Restore a backup whose \
                chain verifies, or keep the previous release until the break is explained (docs/operations.md §8)
                """)
        }
        if let seq = try db.scalar("SELECT min(seq) FROM audit_log WHERE action = ?", [AuditAction.auditRekey.rawValue],
                                   as: Int64.self) {
            throw DaemonError("""
                the audit trail verifies under the previous (unkeyed) scheme but row \(seq) is an audit.rekey: it was keyed \
                before and has been re-hashed without the key since, so it was not re-keyed again. Nothing was changed. \
                Restore a backup whose chain verifies under its key (docs/operations.md §8)
                """)
        }
        try db.execute("INSERT INTO audit_key (id, fingerprint, keyed_at, rows_rekeyed) VALUES (1, ?, ?, ?)",
                       [key.fingerprint, ms, old.rowsChecked])
        guard let oldSeq = old.lastSeq, let oldHash = old.lastHash else { return }
        // IF EXISTS: triggers someone dropped are created again all the same.
        try db.execute("DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;")
        try rehash(db, key: key)
        try db.execute(AuditSchema.appendOnlyTriggers)
        try AuditLog.append(db, at: ms, actor: "system", action: .auditRekey, subject: nil,
                            details: AuditDetails.Rekey(rows: old.rowsChecked, oldHead: AuditCheckpoint(seq: oldSeq, hash: oldHash).description))
        db.attach(AuditRekey(rows: old.rowsChecked, oldHead: AuditCheckpoint(seq: oldSeq, hash: oldHash)))
    }

    /// Re-chains every row under `key`, a page at a time (no statement is stepping over
    /// `audit_log` while it is updated).
    private static func rehash(_ db: Connection, key: AuditKey) throws {
        var previousHash = AuditChain.genesisHash
        var cursor: Int64 = 0
        while true {
            let page = try AuditRepository.entries(db, after: cursor, subject: nil, limit: pageSize)
            for entry in page {
                let hash = AuditChain.hash(.keyed(key), of: entry, prevHash: previousHash)
                try db.execute("UPDATE audit_log SET prev_hash = ?, hash = ? WHERE seq = ?", [previousHash, hash, entry.seq])
                previousHash = hash
                cursor = entry.seq
            }
            if page.count < pageSize { return }
        }
    }

    /// Refuses a key other than the one the chain is keyed with: rows appended under it could
    /// never be verified, and the trail would be broken for good from there on.
    static func checkKey(_ db: Connection, key: AuditKey) throws {
        guard let stored = try db.scalar("SELECT fingerprint FROM audit_key WHERE id = 1", as: String.self) else {
            throw DaemonError("the database has no audit key record (audit_key): it was not migrated by this release")
        }
        guard stored == key.fingerprint else {
            throw DaemonError.configuration("""
                \(key.source) is not the audit key this database's trail is keyed with (key fingerprint \(key.fingerprint), \
                the database expects \(stored)); starting would append rows that the trail's key cannot verify. Put the key \
                file that belongs to this database back (docs/operations.md §4.2: a database restored without its key cannot \
                be verified)
                """)
        }
    }
}

/// What `v5_audit_hmac` re-keyed: the rows of the unkeyed chain it verified, and that chain's head.
public struct AuditRekey: Sendable, Equatable {
    public let rows: Int
    public let oldHead: AuditCheckpoint
}
