import Foundation
import SQLite

/// The daemon's SQLite database: one group-commit writer (every write is a job in a batched
/// `BEGIN IMMEDIATE` transaction, answered only after its COMMIT) and two pools of readers (WAL
/// lets them run beside the writer).
///
/// `readers` serve every authentication and every short read of a request. Reads that take
/// long — verifying the audit chain, listing it, exports, the report, statistics, copying the
/// database — run on `longReaders` instead: a small pool of their own, so they never take the
/// connections a patient's request needs. Their gate (`longReadAdmission`) bounds how many may
/// wait for those connections as well, so that they cannot take the handler threads either.
public final class Database: Sendable {
    public let path: String
    public let writer: GroupCommitWriter
    public let readers: ReaderPool
    /// For long reads (`longRead`).
    public let longReaders: ReaderPool
    /// Long reads running (one per long-read connection) and waiting for a turn; one beyond is
    /// refused at once. A waiting read holds its request's handler thread (`http.threads`).
    public let longReadAdmission: AdmissionGate
    /// The key the audit chain is keyed with, attached to the writer connection (`AuditLog.append`).
    public let auditKey: AuditKey
    /// Token lookups that succeeded (`Authenticator.check(_:bearer:now:patientTokens:)`);
    /// attached to the writer connection, so the repositories that end a token's validity can
    /// tell it (`TokenCache.credentialsChanged`).
    public let tokens = TokenCache()
    /// True when this open created the database (the daemon then writes the bootstrap admin token).
    public let created: Bool
    /// What this open's `v5_audit_hmac` re-keyed (committed), for the daemon to log; nil when
    /// the migration did not run now or found an empty trail.
    public let auditRekey: AuditRekey?

    /// Readers for `threads` handler threads: at least as many as the threads that can read
    /// at once (the handler threads, the two polling threads that plan day submissions, the
    /// sync, hook, scheduler and summary workers), so that no thread waits for a connection —
    /// above all not a polling thread, whose other connections would wait with it. Opened only
    /// when that many reads overlap.
    public static func readerCount(handlerThreads threads: Int) -> Int { max(8, threads + 8) }
    public static let longReaderCount = 2
    /// The database's file in the data directory.
    public static let fileName = "hyponatrack.sqlite"

    /// Opens (or creates) `directory/hyponatrack.sqlite` and migrates it. A database whose audit
    /// chain is keyed with another key is refused; an older unkeyed chain is re-keyed with
    /// `auditKey` once (migration `v5_audit_hmac`).
    /// `longReads` defaults to the gate for 16 handler threads (`AdmissionGate.longReads`).
    /// `migrated` is told the migrations this open applied, in order (every one for a new
    /// database), as soon as they committed — before the steps that may still refuse the
    /// database, so the daemon can log them even then; it is not called when the schema was current.
    public init(directory: URL, auditKey: AuditKey, readers readerCount: Int = Database.readerCount(handlerThreads: 16),
         longReads: AdmissionGate = .longReads(handlerThreads: 16, connections: Database.longReaderCount),
         migrated: (_ applied: [String], _ created: Bool, _ path: String) -> Void = { _, _, _ in }) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let file = directory.appendingPathComponent(Self.fileName)
        path = file.path
        created = !FileManager.default.fileExists(atPath: path)
        let connection = try Connection(path: path)
        connection.attach(auditKey)
        connection.attach(tokens)
        let applied = try Schema.migrator().migrate(connection)
        if !applied.isEmpty { migrated(applied, created, path) }
        auditRekey = applied.contains("v5_audit_hmac") ? connection.attachment(AuditRekey.self) : nil
        try AuditKeyMigration.checkKey(connection, key: auditKey)
        // The writer is the one connection that appends to the audit chain from here on.
        connection.attach(AuditHead())
        self.auditKey = auditKey
        writer = GroupCommitWriter(connection: connection)
        readers = try ReaderPool(path: path, maximumReaders: readerCount)
        longReaders = try ReaderPool(path: path, maximumReaders: Self.longReaderCount)
        longReadAdmission = longReads
    }

    /// Runs `job` in the next group-commit transaction and returns after COMMIT.
    ///
    /// If credentials changed meanwhile (this job's or another's), the token cache is moved on
    /// once more after the COMMIT (see `TokenCache`: a lookup whose snapshot began before the
    /// COMMIT must not count afterwards).
    public func write<T>(_ job: (Connection) throws -> T) throws -> T {
        let generation = tokens.currentGeneration
        defer { tokens.committed(since: generation) }
        return try writer.write(job)
    }

    /// `write` without waiting: `completion` runs on the writer thread after the COMMIT (see
    /// `GroupCommitWriter.submit`), after the token cache has been moved on as `write` does.
    public func submit<T>(_ job: @escaping @Sendable (Connection) throws -> T,
                          completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        let generation = tokens.currentGeneration
        writer.submit(job) { [tokens] result in
            tokens.committed(since: generation)
            completion(result)
        }
    }

    /// Runs `body` on a read connection.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T { try readers.read(body) }

    /// Runs `body` on a long-read connection (one read transaction): for reads whose time grows
    /// with the database (audit verify and listing, exports, backups), never for a request's
    /// short reads. Throws `DomainError.busy(.longReads, …)` at once, before any reading, when
    /// as many long reads as `longReadAdmission` admits are running and waiting already.
    public func longRead<T>(_ body: (Connection) throws -> T) throws -> T {
        guard let result = try longReadAdmission.run({ try longReaders.read(body) }) else {
            throw DomainError.busy(.longReads, retryAfterSeconds: AdmissionGate.retryAfterSeconds)
        }
        return result
    }

    public func close() {
        writer.close()
        readers.close()
        longReaders.close()
    }
}
