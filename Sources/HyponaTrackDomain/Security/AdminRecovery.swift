import Foundation
import SQLite

/// Offline admin recovery (`hyponatrackd --config CFG --data-dir D --new-admin-token FILE`): when
/// every admin token is lost, a new admin is created directly in the stopped daemon's database
/// and its token written to FILE (0600, a new file). The caller holds the data directory's lock
/// (`DataDirectoryLock`), so no daemon runs meanwhile.
///
/// The audit chain is not touched here: its key is often only the service's (systemd's
/// `LoadCredential=`), and an operator running this by hand may not have it. The recovery is
/// written instead to `DATA_DIR/admin-recovery.pending` in the same transaction as the member,
/// and the next start appends the `staff.recover` row under the key (`auditPending`).
public enum AdminRecovery {
    static let pendingFileName = "admin-recovery.pending"

    /// Why the recovery cannot be done.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// One pending recovery: the member and when they were created (ms).
    struct Pending: Codable {
        let name: String
        let at: Int64
    }

    /// Creates `recovery-admin-YYYYMMDDTHHMMSSZ` with a new token written to `tokenFile`;
    /// returns the member's name.
    public static func run(dataDirectory: URL, tokenFile: String, now: Double) throws(Failure) -> String {
        let path = dataDirectory.appendingPathComponent(Database.fileName).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(description: "\(path) does not exist: there is no database to recover (a new one gets its bootstrap admin at the first start)")
        }
        if FileManager.default.fileExists(atPath: tokenFile) {
            throw Failure(description: "\(tokenFile) exists: give a new file for the token (it is never overwritten)")
        }
        let stamp = iso8601UTC(milliseconds: epochMilliseconds(now)).filter { $0 != "-" && $0 != ":" }.prefix(15)
        let name = "recovery-admin-\(stamp)Z"
        do {
            let db = try Connection(path: path)
            defer { db.close() }
            let migrator = Schema.migrator()
            guard try migrator.appliedMigrations(in: db) == migrator.registeredNames else {
                throw Failure(description: "\(path) was written by another release: start this release's daemon once (it migrates the database), then stop it and try again")
            }
            try db.transaction(.immediate) {
                let (_, token) = try StaffDirectory.createStaff(db, name: name, role: .admin, by: "offline-recovery", now: now)
                guard try OwnerOnlyFile.create(token + "\n", at: tokenFile) else {
                    throw Failure(description: "\(tokenFile) exists: give a new file for the token (it is never overwritten)")
                }
                try appendPending(Pending(name: name, at: epochMilliseconds(now)), dataDirectory: dataDirectory)
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            unlink(tokenFile)
            throw Failure(description: "\(path): \(error)")
        }
        return name
    }

    /// At a start: a `staff.recover` row for each admin created offline since the last start,
    /// then the pending file goes. A row already written (a crash before the file went) is not
    /// written twice; a member the recovery's transaction never committed is skipped.
    static func auditPending(_ database: Database, dataDirectory: URL, logger: Logger, now: Double) throws {
        let file = dataDirectory.appendingPathComponent(pendingFileName).path
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return }
        let pending = text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Pending.self, from: Data($0.utf8)) }
        let audited: [String] = try database.write { db in
            var names: [String] = []
            for p in pending {
                let subject = "staff:\(p.name)"
                guard try StaffDirectory.findStaff(db, name: p.name) != nil,
                      try AuditRepository.entries(db, after: 0, subject: subject, limit: 1000)
                          .allSatisfy({ $0.action != AuditAction.staffRecover.rawValue }) else { continue }
                try AuditLog.append(db, at: epochMilliseconds(now), actor: "offline-recovery", action: .staffRecover, subject: subject,
                                    details: AuditDetails.StaffRecovery(role: "admin", createdAt: iso8601UTC(milliseconds: p.at)))
                names.append(p.name)
            }
            return names
        }
        unlink(file)
        for name in audited {
            logger.warning("an admin was created offline (hyponatrackd --new-admin-token); audited as staff.recover", ["staff": name])
        }
    }

    /// Appends one line to the pending file (0600), fsynced.
    private static func appendPending(_ pending: Pending, dataDirectory: URL) throws {
        let file = dataDirectory.appendingPathComponent(pendingFileName).path
        let fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DaemonError("cannot write \(file): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let line = Array(try JSONEncoder().encode(pending)) + [UInt8(ascii: "\n")]
        let written = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == line.count, fsync(fd) == 0 else {
            throw DaemonError("cannot write \(file): \(String(cString: strerror(errno)))")
        }
    }
}
