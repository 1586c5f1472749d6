import Foundation
import SQLite

/// The daemon's SQLite database: one group-commit writer (every write is a job in a batched
/// `BEGIN IMMEDIATE` transaction, answered only after its COMMIT) and a pool of readers (WAL lets
/// them run beside the writer).
public final class Database: Sendable {
    public let path: String
    public let writer: GroupCommitWriter
    public let readers: ReaderPool
    /// True when this open created the database (the daemon then writes the bootstrap admin token).
    public let created: Bool

    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let file = directory.appendingPathComponent("hyponatrack.sqlite")
        path = file.path
        created = !FileManager.default.fileExists(atPath: path)
        let connection = try Connection(path: path)
        _ = try Schema.migrator().migrate(connection)
        writer = GroupCommitWriter(connection: connection)
        readers = try ReaderPool(path: path, maximumReaders: 8)
    }

    /// Runs `job` in the next group-commit transaction and returns after COMMIT.
    public func write<T>(_ job: (Connection) throws -> T) throws -> T { try writer.write(job) }

    /// Runs `body` on a read connection.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T { try readers.read(body) }

    public func close() {
        writer.close()
        readers.close()
    }
}
