import SQLite

/// Staff members and their tokens.
///
/// Every function runs on the caller's connection inside the caller's write transaction (the
/// group-commit job); none begins or commits. Recording the action in the audit trail is the
/// caller's job too, in the same transaction (never with the token in the details).
public enum StaffDirectory {
    /// The name of the admin created on a new database.
    public static let bootstrapAdminName = "bootstrap-admin"

    /// Creates a staff member and their first token. Returns the member and the token, which
    /// exists in plain text only in this return value.
    ///
    /// - Parameter actor: who creates them, as an audit actor string (`staff:<name>`, `system`).
    /// - Throws: `StaffError.invalidName`, `StaffError.nameTaken`, or database errors.
    public static func createStaff(_ db: Connection, name: String, role: Role, by actor: String,
                                   now: Double) throws -> (staff: StaffMember, token: String) {
        guard isValidName(name) else { throw StaffError.invalidName(name) }
        // Checked first for a typed error; the UNIQUE NOCASE constraint still guards races.
        if try findStaff(db, name: name) != nil { throw StaffError.nameTaken(name) }
        let nowMs = epochMilliseconds(now)
        let id: Int64
        do {
            id = try StaffRepository.insert(db, name: name, role: role, by: actor, at: nowMs)
        } catch let error as SQLiteError where error.isUniqueConstraintViolation {
            throw StaffError.nameTaken(name)
        }
        let token = try issueToken(db, staffId: id, nowMs: nowMs)
        guard let staff = try findStaff(db, name: name) else { throw StaffError.notFound(name) }
        return (staff, token)
    }

    /// Every staff member, revoked ones included, ordered by name.
    public static func listStaff(_ db: Connection) throws -> [StaffMember] {
        try StaffRepository.all(db)
    }

    /// The staff member with this name (case-insensitive), or nil.
    public static func findStaff(_ db: Connection, name: String) throws -> StaffMember? {
        try StaffRepository.find(db, name: name)
    }

    /// Revokes a staff member and every token they hold; both take effect on the next request.
    /// Refuses to revoke the last active admin, which would leave nobody able to manage staff.
    ///
    /// - Throws: `StaffError.notFound`, `.alreadyRevoked`, `.lastActiveAdmin`, database errors.
    @discardableResult
    public static func revokeStaff(_ db: Connection, name: String, by actor: String, now: Double) throws -> StaffMember {
        guard let staff = try findStaff(db, name: name) else { throw StaffError.notFound(name) }
        guard staff.isActive else { throw StaffError.alreadyRevoked(staff.name) }
        if staff.role == .admin, try StaffRepository.activeAdminCount(db) <= 1 {
            throw StaffError.lastActiveAdmin(staff.name)
        }
        let nowMs = epochMilliseconds(now)
        try StaffRepository.revoke(db, id: staff.id, by: actor, at: nowMs)
        try TokenRepository.revokeStaffTokens(db, staffId: staff.id, at: nowMs)
        return try findStaff(db, name: staff.name) ?? staff
    }

    /// Replaces every token the member holds by a new one: the old ones are revoked (refused on
    /// the very next request), the new one exists in plain text only in the return value.
    ///
    /// - Throws: `StaffError.notFound`, `.alreadyRevoked` (a revoked member gets no token), or
    ///   database errors.
    public static func rotateToken(_ db: Connection, name: String, now: Double) throws -> (staff: StaffMember, token: String) {
        guard let staff = try findStaff(db, name: name) else { throw StaffError.notFound(name) }
        guard staff.isActive else { throw StaffError.alreadyRevoked(staff.name) }
        let nowMs = epochMilliseconds(now)
        try TokenRepository.revokeStaffTokens(db, staffId: staff.id, at: nowMs)
        return (staff, try issueToken(db, staffId: staff.id, nowMs: nowMs))
    }

    /// On an empty `staff` table, creates the admin `bootstrap-admin` (actor `system`) and
    /// returns its token for the daemon to write to `DATA_DIR/admin.token`; otherwise nil, so
    /// a restart never mints a second bootstrap token.
    public static func bootstrapAdmin(_ db: Connection, now: Double) throws -> String? {
        guard try StaffRepository.count(db) == 0 else { return nil }
        return try createStaff(db, name: bootstrapAdminName, role: .admin, by: "system", now: now).token
    }

    /// Staff names: 1–64 characters of `[A-Za-z0-9_.@-]` (they appear in audit actors and CLI
    /// arguments, so no spaces, colons or non-ASCII look-alikes; `@` for a provider's e-mail-like usernames).
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "@"):
                return true
            default:
                return false
            }
        }
    }

    private static func issueToken(_ db: Connection, staffId: Int64, nowMs: Int64) throws -> String {
        let token = try Secrets.newToken(.staff)
        try TokenRepository.insertStaffToken(db, staffId: staffId, hash: Secrets.tokenHash(token), at: nowMs)
        return token
    }
}
