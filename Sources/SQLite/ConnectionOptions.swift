extension Connection {
    /// How a `Connection` is opened. Journal mode, synchronous level and foreign keys are not
    /// options: every writable connection gets WAL + `synchronous=FULL` + `foreign_keys=ON`,
    /// because the server acknowledges a measurement only once it is durable.
    public struct Options: Sendable {
        /// File access.
        public enum Access: Sendable {
            /// Read and write, creating the file (mode 0600) if it does not exist.
            case readWriteCreate
            /// Read and write an existing file.
            case readWrite
            /// Read only (`SQLITE_OPEN_READONLY`); used by `ReaderPool`. The database must
            /// already exist and be in WAL mode for readers to run beside the writer.
            case readOnly
        }

        /// File access; default `.readWriteCreate`.
        public var access: Access
        /// How long a statement waits for a lock held by another connection before failing
        /// with `SQLITE_BUSY`; default 5 seconds.
        public var busyTimeout: Duration
        /// How many prepared statements the connection keeps for reuse, keyed by SQL text.
        public var statementCacheCapacity: Int

        /// Creates options; the defaults suit the server's writer connection.
        public init(access: Access = .readWriteCreate,
                    busyTimeout: Duration = .seconds(5),
                    statementCacheCapacity: Int = 64) {
            self.access = access
            self.busyTimeout = busyTimeout
            self.statementCacheCapacity = statementCacheCapacity
        }

        /// Read-only access with the default busy timeout.
        public static var readOnly: Options { Options(access: .readOnly) }
    }
}
