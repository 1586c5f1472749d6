/// Migration `v8_console_sessions`: staff passwords and the console's server-side sessions.
///
/// A password is stored only as its PBKDF2 hash (`PasswordHash`), in a table of its own so no
/// `SELECT * FROM staff` ever carries it. A session is identified by the SHA-256 hex of the
/// random cookie value (the value itself is never stored); it ends after 30 idle minutes or 12
/// hours (`SessionPolicy`), on sign-out, and when the member's password, token or membership
/// changes.
enum SessionSchema {
    static let v1 = """
        CREATE TABLE staff_passwords (
            staff_id INTEGER PRIMARY KEY REFERENCES staff(id),
            hash TEXT NOT NULL,                   -- pbkdf2-sha256$ITERATIONS$SALT$HASH
            set_at INTEGER NOT NULL,
            set_by TEXT NOT NULL
        ) STRICT;

        CREATE TABLE console_sessions (
            id INTEGER PRIMARY KEY,
            token_hash TEXT NOT NULL UNIQUE,      -- SHA-256 hex of the cookie value
            staff_id INTEGER NOT NULL REFERENCES staff(id),
            created_at INTEGER NOT NULL,
            last_seen_at INTEGER NOT NULL,
            ip TEXT NOT NULL
        ) STRICT;
        CREATE INDEX console_sessions_staff ON console_sessions(staff_id);
        """
}
