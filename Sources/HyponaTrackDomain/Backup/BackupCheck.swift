import Foundation
import Crypto
import SQLite

/// What the checks of a backup file found (`backup verify FILE`, and every backup after it is
/// written): SQLite's integrity check, the audit chain verified on the copy under the live key,
/// the schema version against this release's migrations, and the file's SHA-256 against its
/// manifest.
public struct BackupVerification: Sendable {
    public let file: String
    public let bytes: Int
    /// `PRAGMA integrity_check`: "ok", or its first complaint.
    public let integrity: String
    public let auditIntact: Bool
    public let auditRows: Int
    /// The copy's audit chain head `SEQ:HEX` (nil: empty, or not readable).
    public let auditHead: String?
    /// The last migration recorded in the copy (nil: not readable).
    public let schemaVersion: String?
    /// The copy's schema is this release's, or an older one this release migrates.
    public let schemaRestorable: Bool
    /// nil: no manifest to compare with (a backup of an earlier release).
    public let checksumMatches: Bool?
    public let sha256: String
    /// Every problem found, in words; empty when the backup is good.
    public let problems: [String]

    public var isGood: Bool { problems.isEmpty }
}

enum BackupCheck {
    /// Checks the file at `path`; `manifest` is what was recorded when it was written (nil: none yet).
    static func run(_ path: String, key: AuditKey, manifest: BackupManifest?) -> BackupVerification {
        var problems: [String] = []
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var sha = ""
        do { sha = Crypto.hex(try Crypto.sha256(fileAt: path)) } catch { problems.append("\(error)") }
        let checksumMatches = manifest.map { $0.sha256 == sha }
        if checksumMatches == false { problems.append("its SHA-256 is not the one recorded when it was written: the file changed since") }
        var integrity = "not checked", audit: AuditVerification?, schema: [String]?
        do {
            let db = try Connection(path: path, options: .readOnly)
            defer { db.close() }
            integrity = (try BackupRepository.integrityCheck(db))
            if integrity != "ok" { problems.append("SQLite's integrity check: \(integrity)") }
            schema = try Schema.migrator().appliedMigrations(in: db)
            audit = try db.transaction(.deferred) { try AuditLog.verify(db, key: key) }
        } catch {
            problems.append("cannot be read as this server's database: \(error)")
        }
        if let audit, !audit.isIntact {
            problems.append("its audit chain is broken at row \(audit.firstBrokenSeq.map(String.init) ?? "?"): \(audit.reason ?? "?")")
        }
        let registered = Schema.migrator().registeredNames
        let restorable = schema.map { !$0.isEmpty && Array(registered.prefix($0.count)) == $0 } ?? false
        if let schema, !restorable {
            problems.append("its schema (\(schema.last ?? "empty")) is not one this release knows (latest \(registered.last ?? "-"))")
        }
        return BackupVerification(file: path, bytes: bytes, integrity: integrity, auditIntact: audit?.isIntact ?? false,
                                  auditRows: audit?.rowsChecked ?? 0, auditHead: audit.flatMap { a in a.lastSeq.flatMap { seq in a.lastHash.map { "\(seq):\($0)" } } },
                                  schemaVersion: schema?.last, schemaRestorable: restorable, checksumMatches: checksumMatches,
                                  sha256: sha, problems: problems)
    }
}
