import CSQLite

/// Extended result codes. sqlite3.h defines them as `(SQLITE_CONSTRAINT | (8<<8))`, which
/// Swift does not import ("structure not supported"), so they are rebuilt here with the same
/// formula (https://sqlite.org/rescode.html#extrc).
enum ExtendedResultCode {
    static let constraintCheck: Int32 = SQLITE_CONSTRAINT | (1 << 8)
    static let constraintForeignKey: Int32 = SQLITE_CONSTRAINT | (3 << 8)
    static let constraintNotNull: Int32 = SQLITE_CONSTRAINT | (5 << 8)
    static let constraintPrimaryKey: Int32 = SQLITE_CONSTRAINT | (6 << 8)
    static let constraintTrigger: Int32 = SQLITE_CONSTRAINT | (7 << 8)
    static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)
    static let constraintDataType: Int32 = SQLITE_CONSTRAINT | (12 << 8)
    static let busyRecovery: Int32 = SQLITE_BUSY | (1 << 8)
    static let busySnapshot: Int32 = SQLITE_BUSY | (2 << 8)
    static let busyTimeout: Int32 = SQLITE_BUSY | (3 << 8)
    static let abortRollback: Int32 = SQLITE_ABORT | (2 << 8)
}
