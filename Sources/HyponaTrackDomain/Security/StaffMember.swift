import SQLite

/// A row of the `staff` table. Times are milliseconds since the epoch; actors are audit actor
/// strings (`staff:<name>` or `system`).
public struct StaffMember: Sendable, Equatable {
    public let id: Int64
    public let name: String
    public let role: Role
    public let createdAt: Int64
    public let createdBy: String
    public let revokedAt: Int64?
    public let revokedBy: String?
    /// Works for every site (`staff.all_sites`; an admin always does, whatever is stored).
    public let allSites: Bool

    /// Whether the member may still authenticate.
    public var isActive: Bool { revokedAt == nil }

    init(row: Row) throws {
        id = try row.int64("id")
        name = try row.string("name")
        let roleText = try row.string("role")
        guard let role = Role(rawValue: roleText) else {
            // The CHECK constraint makes this unreachable unless the file was edited by hand.
            throw SQLiteError(extendedCode: SQLiteError.Code.mismatch, message: "unknown staff role \(roleText)")
        }
        self.role = role
        createdAt = try row.int64("created_at")
        createdBy = try row.string("created_by")
        revokedAt = try row.optionalInt64("revoked_at")
        revokedBy = try row.optionalString("revoked_by")
        allSites = try role == .admin || row.int64("all_sites") != 0
    }
}

/// Why a staff management request was refused. Each case is the requester's mistake and
/// carries a message they can act on; database failures are thrown as `SQLiteError` instead.
public enum StaffError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name is not 1–64 characters of `A-Z a-z 0-9 _ . -` (HTTP 400 `invalid_value`).
    case invalidName(String)
    /// A staff member with this name exists, compared case-insensitively; names are never
    /// reused, even after revocation (HTTP 409 `conflict`).
    case nameTaken(String)
    /// No staff member has this name (HTTP 404 `not_found`).
    case notFound(String)
    /// The staff member is already revoked (HTTP 409 `conflict`).
    case alreadyRevoked(String)
    /// Revoking this admin would leave no active admin to manage staff (HTTP 409 `conflict`).
    case lastActiveAdmin(String)

    public var description: String {
        switch self {
        case .invalidName:
            return "a staff name must be 1-64 characters of letters, digits, '_', '.' or '-'"
        case .nameTaken(let name):
            return "a staff member named \(name) already exists (names are not reused)"
        case .notFound(let name):
            return "no staff member named \(name)"
        case .alreadyRevoked(let name):
            return "staff member \(name) is already revoked"
        case .lastActiveAdmin(let name):
            return "\(name) is the last active admin; add another admin before revoking"
        }
    }
}
