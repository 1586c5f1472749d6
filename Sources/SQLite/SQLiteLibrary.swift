import CSQLite

/// Facts about the linked SQLite library.
public enum SQLiteLibrary {
    /// `sqlite3_libversion()`, e.g. "3.40.1".
    public static var version: String { String(cString: sqlite3_libversion()) }
    /// Whether the library was built thread-safe (`sqlite3_threadsafe() != 0`).
    public static var isThreadSafe: Bool { sqlite3_threadsafe() != 0 }
}
