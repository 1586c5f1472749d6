import Foundation
import Synchronization
import SQLite

/// `POST /v1/backup` (admin).
public struct CreateBackup: Sendable {
    public var actor: String

    public init(actor: String) {
        self.actor = actor
    }
}

/// `POST /v1/backups/verification` (admin): a file in the backup directory, by name or path.
public struct VerifyBackup: Sendable {
    public var file: String
    public var actor: String

    public init(file: String, actor: String) {
        self.file = file
        self.actor = actor
    }
}

/// A backup made and checked: where it is, how big, and what the checks of the copy found.
public struct BackupReport: Sendable, Equatable {
    public var path: String
    public var bytes: Int
    /// ms since the epoch.
    public var createdAt: Int64
    /// SQLite's integrity check of the copy ("ok").
    public var integrity: String
    public var auditIntact: Bool
    public var auditRows: Int
    public var schemaVersion: String
    public var sha256: String
    /// Older backups deleted by retention after this one was written.
    public var pruned: [String]
}

/// Consistent online copies of the database in `backup.directory` (else `DATA_DIR/backups/`),
/// scheduled (`BackupScheduler`) or on demand, made on a long-read connection. Each is written
/// under a hidden name, checked (`BackupCheck`: integrity, the audit chain under the live key,
/// the schema version), given its manifest and only then its final name; with `backup`
/// configured, retention (`BackupRetention`) prunes the rest. A backup that would leave less
/// than 10 % of its filesystem free is not started. A failure is audited (`backup.failed`) and
/// sent to the hooks that subscribe to `backup.failed`. Restore: docs/operations.md §6.
public final class BackupService: Sendable {
    public enum Trigger: String, Sendable { case scheduled, manual }

    let transactions: Transactions
    let clock: any ServerClock
    let configuration: ServerConfiguration
    let hooksWake: @Sendable () -> Void
    /// The backup directory's filesystem (tests hand in a full one).
    let space: @Sendable (URL) -> FileSystemSpace?
    /// The last good backup, failures and durations: `/healthz` and `/metrics`.
    public let status: BackupStatus
    /// One backup at a time (a scheduled one and an on-demand one never write at once).
    private let running = Mutex(false)

    init(transactions: Transactions, clock: any ServerClock, configuration: ServerConfiguration,
         hooksWake: @escaping @Sendable () -> Void = {}, space: @escaping @Sendable (URL) -> FileSystemSpace? = FileSystemSpace.of) {
        self.transactions = transactions
        self.clock = clock
        self.configuration = configuration
        self.hooksWake = hooksWake
        self.space = space
        // What a crash (or kill -9) left mid-backup is hidden; it goes now.
        BackupDirectory.removeLeftovers(configuration.backupDirectory)
        status = BackupStatus(lastGoodAt: BackupDirectory.list(configuration.backupDirectory).first { $0.manifest != nil }?.createdAt)
    }

    public var directory: URL { configuration.backupDirectory }
    /// Whether backups are scheduled (`backup` configured), and so pruned.
    public var isScheduled: Bool { configuration.backup != nil }

    /// An on-demand backup (`hyponatrack backup`).
    public func backup(_ command: CreateBackup) throws -> BackupReport {
        try make(.manual, actor: command.actor)
    }

    /// Every backup in the directory, newest first.
    public func list() -> [BackupFile] { BackupDirectory.list(directory) }

    /// Checks a backup of the directory again, as after it was written, and its SHA-256 against
    /// its manifest. A path outside the directory, or a name that is no backup, is refused.
    public func verify(_ command: VerifyBackup) throws -> BackupVerification {
        let name = (command.file as NSString).lastPathComponent
        if command.file.contains("/") {
            let parent = URL(fileURLWithPath: command.file).deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL.path
            guard parent == directory.resolvingSymlinksInPath().standardizedFileURL.path else {
                throw DomainError.rejected(.invalid("file", "must be a backup in the backup directory \(directory.path)"))
            }
        }
        guard BackupDirectory.createdAt(ofName: name) != nil else {
            throw DomainError.rejected(.invalid("file", "not a backup's name (hyponatrack-YYYY-MM-DDTHHMMSS-mmmZ.sqlite)"))
        }
        let path = directory.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else { throw DomainError.notFound("no backup \(name) in \(directory.path)") }
        // As long as a long read: the same admission bounds it.
        let key = transactions.database.auditKey
        guard let result = transactions.database.longReadAdmission.run({
            BackupCheck.run(path, key: key, manifest: BackupDirectory.manifest(of: path))
        }) else { throw DomainError.busy(.longReads, retryAfterSeconds: AdmissionGate.retryAfterSeconds) }
        return result
    }

    /// One backup: written, checked, named, audited, pruned; or a failure audited and sent to
    /// the hooks, then thrown.
    func make(_ trigger: Trigger, actor: String) throws -> BackupReport {
        let started = running.withLock { busy -> Bool in defer { busy = true }; return !busy }
        guard started else { throw DomainError.conflict("a backup is being written; try again when it is done") }
        defer { running.withLock { $0 = false } }
        let begin = clock.now()
        do {
            let report = try write(at: epochMilliseconds(begin), actor: actor)
            status.succeeded(at: report.createdAt, seconds: clock.now() - begin)
            return report
        } catch let error as DomainError {
            if case .busy = error { throw error }
            let reason: String
            if case .integrity(let message) = error { reason = message } else { reason = error.description }
            recordFailure(trigger, actor: actor, reason: reason, seconds: clock.now() - begin)
            throw error
        } catch {
            recordFailure(trigger, actor: actor, reason: "\(error)", seconds: clock.now() - begin)
            throw DomainError.integrity("backup failed: \(error)")
        }
    }

    private func write(at ms: Int64, actor: String) throws -> BackupReport {
        let dir = directory
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        BackupDirectory.removeLeftovers(dir)
        let estimate = try transactions.read { db in try BackupRepository.size(db) }
        if let refusal = space(dir)?.refusal(writing: estimate) {
            throw DomainError.integrity("backup not started: \(refusal) on the filesystem of \(dir.path)")
        }
        let name = BackupDirectory.name(at: ms)
        let final = dir.appendingPathComponent(name).path
        let temporary = BackupDirectory.temporaryPath(dir, name: name)
        defer { unlink(temporary) }
        try transactions.longRead { db in try BackupRepository.copy(db, to: temporary) }
        let check = BackupCheck.run(temporary, key: transactions.database.auditKey, manifest: nil)
        let registered = Schema.migrator().registeredNames.last ?? "-"
        guard check.isGood, check.schemaVersion == registered else {
            let problems = check.problems + (check.schemaVersion == registered ? [] : ["its schema is not this release's \(registered)"])
            throw DomainError.integrity("backup failed its checks: " + problems.joined(separator: "; "))
        }
        let manifest = BackupManifest(sha256: check.sha256, bytes: check.bytes, createdAt: ms, schemaVersion: registered,
                                      auditRows: check.auditRows, auditHead: check.auditHead)
        try OwnerOnlyFile.write(String(decoding: try JSONEncoder().encode(manifest), as: UTF8.self) + "\n",
                                to: BackupDirectory.manifestPath(final))
        guard rename(temporary, final) == 0 else {
            throw DomainError.integrity("backup: cannot rename to \(final): \(String(cString: strerror(errno)))")
        }
        BackupDirectory.sync(dir)
        _ = try transactions.write { db in
            try AuditLog.append(db, at: ms, actor: actor, action: .backupCreate, subject: nil,
                                details: AuditDetails.Backup(path: final, bytes: check.bytes))
        }
        return BackupReport(path: final, bytes: check.bytes, createdAt: ms, integrity: check.integrity, auditIntact: check.auditIntact,
                            auditRows: check.auditRows, schemaVersion: registered, sha256: check.sha256, pruned: prune(now: ms))
    }

    /// Deletes what retention does not keep (only with `backup` configured: without it the
    /// on-demand backups of `DATA_DIR/backups/` are the operator's to delete). Returns their names.
    func prune(now ms: Int64) -> [String] {
        guard let settings = configuration.backup else { return [] }
        let backups = BackupDirectory.list(directory)
        let keep = BackupRetention.keep(backups.map(\.createdAt), now: ms, keepHourly: settings.keepHourly, keepDaily: settings.keepDaily)
        let pruned = backups.filter { !keep.contains($0.createdAt) }
        pruned.forEach(BackupDirectory.remove)
        if !pruned.isEmpty { BackupDirectory.sync(directory) }
        return pruned.map(\.name)
    }

    /// `backup.failed`: audited, and queued for the hooks that subscribe to it (best effort: the
    /// failure may be the database's own).
    private func recordFailure(_ trigger: Trigger, actor: String, reason: String, seconds: Double) {
        let ms = epochMilliseconds(clock.now())
        status.failed(at: ms, reason: reason, seconds: seconds)
        let subscribers = HookOutbox.subscribers(configuration.hooks, type: .backupFailed)
        let queued = try? transactions.write { db -> Bool in
            try AuditLog.append(db, at: ms, actor: actor, action: .backupFailed, subject: nil,
                                details: AuditDetails.BackupFailure(trigger: trigger.rawValue, reason: reason))
            let data = HookEventData.BackupFailed(trigger: trigger.rawValue, directory: directory.path, reason: reason)
            return try HookOutbox.enqueue(db, type: .backupFailed, data: data, hooks: subscribers, at: ms) != nil
        }
        if queued == true { hooksWake() }
    }
}
