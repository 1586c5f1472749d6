import Foundation
import HTJSON
import SQLite

extension StudyService {
    /// `POST /v1/backup` (admin): a consistent online copy under `DATA_DIR/backups/` made with
    /// SQLite's backup API on a read connection (WAL: writers carry on meanwhile). Restore: stop
    /// the daemon, copy the file over `DATA_DIR/hyponatrack.sqlite`, delete the `-wal` and `-shm`
    /// files, start the daemon (docs/operations.md).
    public func backup(actor: String) throws -> JSONValue {
        let (_, ms) = nowMilliseconds()
        let dir = configuration.dataDirectory.appendingPathComponent("backups")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let stamp = iso8601UTC(milliseconds: ms).replacingOccurrences(of: ":", with: "").replacingOccurrences(of: ".", with: "-")
        let file = dir.appendingPathComponent("hyponatrack-\(stamp).sqlite")
        try database.read { db in try db.backup(to: file.path) }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        // Check the copy before saying it is good: it opens, passes SQLite's integrity check and
        // its audit chain verifies.
        let check = try Connection(path: file.path, options: .readOnly)
        defer { check.close() }
        let integrity = try check.scalar("PRAGMA quick_check", as: String.self) ?? "?"
        let audit = try AuditLog.verify(check)
        guard integrity == "ok" else { throw DomainError.integrity("the backup failed its integrity check") }
        try write { db in
            try AuditLog.append(db, at: ms, actor: actor, action: .backupCreate, subject: nil,
                                details: ["path": .string(file.path), "bytes": .int(size)])
        }
        return ["path": .string(file.path), "bytes": .int(size), "createdAt": .string(iso8601UTC(milliseconds: ms)),
                "integrity": .string(integrity), "auditIntact": .bool(audit.isIntact), "auditRows": .int(audit.rowsChecked)]
    }
}
