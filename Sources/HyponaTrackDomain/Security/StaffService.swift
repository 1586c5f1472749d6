import Crypto
import HTJSON
import SQLite

/// `POST /v1/staff` (admin): a new member with their first token.
public struct AddStaff: Sendable {
    public var name: String
    public var role: Role
    /// The sites they work for (none named: the study's one site, if it has one).
    public var sites: StaffSites
    public var actor: String

    public init(name: String, role: Role, sites: StaffSites = StaffSites(), actor: String) {
        self.name = name
        self.role = role
        self.sites = sites
        self.actor = actor
    }
}

/// `POST /v1/staff/{name}/revocation` (admin): the member and every token they hold stop working.
public struct RevokeStaff: Sendable {
    public var name: String
    public var actor: String

    public init(name: String, actor: String) {
        self.name = name
        self.actor = actor
    }
}

/// `POST /v1/staff/{name}/rotation` (an admin, or the member themself): a new token for the
/// member; every token they held stops working at once.
public struct RotateStaffToken: Sendable {
    public var name: String
    public var actor: String

    public init(name: String, actor: String) {
        self.name = name
        self.actor = actor
    }
}

/// A staff member as staff management shows them.
public struct StaffView: Sendable, Equatable {
    public var name: String
    public var role: Role
    public var isActive: Bool
    /// ms since the epoch.
    public var createdAt: Int64
    public var revokedAt: Int64?
    /// The codes of the sites they work for (empty when `allSites`).
    public var sites: [String]
    /// Every site (always so for an admin).
    public var allSites: Bool

    init(_ member: StaffMember, sites: [String], allSites: Bool) {
        name = member.name
        role = member.role
        isActive = member.isActive
        createdAt = member.createdAt
        revokedAt = member.revokedAt
        self.sites = member.role == .admin ? [] : sites
        self.allSites = member.role == .admin || allSites
    }
}

/// `PUT /v1/staff/{name}/password` (an admin, or the member themself): the member's console
/// password; their console sessions end.
public struct SetStaffPassword: Sendable {
    public var name: String
    public var password: String
    public var actor: String

    public init(name: String, password: String, actor: String) {
        self.name = name
        self.password = password
        self.actor = actor
    }
}

/// A member just added, with the token that exists in plain text only here (shown once).
public struct AddedStaff: Sendable, Equatable {
    public var staff: StaffView
    public var token: String
}

/// A member's new token after a rotation, in plain text only here (shown once).
public struct RotatedStaffToken: Sendable, Equatable {
    public var name: String
    public var token: String
}

/// Staff management: add, list, revoke, rotate — each change with its audit row in one
/// transaction (never with the token in the details).
public final class StaffService: Sendable {
    let transactions: Transactions
    let clock: any ServerClock

    init(transactions: Transactions, clock: any ServerClock) {
        self.transactions = transactions
        self.clock = clock
    }

    public func add(_ command: AddStaff) throws -> AddedStaff {
        let now = clock.now()
        return try transactions.write { db in
            guard try StaffDirectory.findStaff(db, name: command.name) == nil else {
                throw DomainError.conflict("a staff member named \(command.name) exists", field: "name")
            }
            guard StaffDirectory.isValidName(command.name) else { throw DomainError.invalid("name", StaffError.invalidName(command.name).description) }
            let (allSites, ids, codes) = try SiteService.resolve(db, command.sites, role: command.role)
            let (member, token) = try StaffDirectory.createStaff(db, name: command.name, role: command.role, by: command.actor,
                                                                 now: now)
            try SiteRepository.setStaffSites(db, staffId: member.id, allSites: allSites, sites: ids)
            try AuditLog.append(db, at: epochMilliseconds(now), actor: command.actor, action: .staffAdd, subject: "staff:\(member.name)",
                                details: AuditDetails.StaffSiteList(role: member.role.rawValue, sites: codes, allSites: allSites))
            return AddedStaff(staff: StaffView(member, sites: codes, allSites: allSites), token: token)
        }
    }

    /// Every member, revoked ones included, ordered by name.
    public func list() throws -> [StaffView] {
        try transactions.read { db in
            let codes = try SiteRepository.staffSiteCodes(db)
            return try StaffDirectory.listStaff(db).map { member in
                StaffView(member, sites: codes[member.id] ?? [], allSites: member.allSites)
            }
        }
    }

    /// The member as revoked.
    public func revoke(_ command: RevokeStaff) throws -> StaffView {
        let now = clock.now()
        return try transactions.write { db in
            guard let existing = try StaffDirectory.findStaff(db, name: command.name), existing.isActive else {
                throw DomainError.notFound("no active staff member named \(command.name)")
            }
            let member: StaffMember
            do { member = try StaffDirectory.revokeStaff(db, name: command.name, by: command.actor, now: now) } catch let e as StaffError {
                throw DomainError.conflict(e.description)   // e.g. the last active admin
            }
            let sessions = try SessionRepository.endAll(db, staffId: member.id)
            try AuditLog.append(db, at: epochMilliseconds(now), actor: command.actor, action: .staffRevoke,
                                subject: "staff:\(member.name)",
                                details: AuditDetails.StaffSessions(role: member.role.rawValue, sessionsEnded: sessions))
            return StaffView(member, sites: try SiteRepository.staffSiteCodes(db)[member.id] ?? [], allSites: member.allSites)
        }
    }

    /// The member's new token; the old ones are refused from the next request on.
    public func rotate(_ command: RotateStaffToken) throws -> RotatedStaffToken {
        let now = clock.now()
        return try transactions.write { db in
            let (member, token): (StaffMember, String)
            do { (member, token) = try StaffDirectory.rotateToken(db, name: command.name, now: now) } catch is StaffError {
                throw DomainError.notFound("no active staff member named \(command.name)")   // unknown or revoked, like revoke
            }
            let sessions = try SessionRepository.endAll(db, staffId: member.id)
            try AuditLog.append(db, at: epochMilliseconds(now), actor: command.actor, action: .staffRotate,
                                subject: "staff:\(member.name)",
                                details: AuditDetails.StaffSessions(role: member.role.rawValue, sessionsEnded: sessions))
            return RotatedStaffToken(name: member.name, token: token)
        }
    }

    /// Sets the member's console password (hashed before the transaction: PBKDF2 takes a while);
    /// every console session of theirs ends.
    public func setPassword(_ command: SetStaffPassword) throws {
        guard command.password.count >= StaffPasswords.minimumLength else {
            throw DomainError.invalid("password", "at least \(StaffPasswords.minimumLength) characters")
        }
        let hash = try PasswordHash.make(command.password)
        let now = clock.now()
        try transactions.write { db in
            guard let member = try StaffDirectory.findStaff(db, name: command.name), member.isActive else {
                throw DomainError.notFound("no active staff member named \(command.name)")
            }
            let ms = epochMilliseconds(now)
            try SessionRepository.setPassword(db, staffId: member.id, hash: hash, by: command.actor, at: ms)
            let sessions = try SessionRepository.endAll(db, staffId: member.id)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .staffPassword, subject: "staff:\(member.name)",
                                details: AuditDetails.SessionsEnded(sessionsEnded: sessions))
        }
    }
}

/// The password rules of `staff passwd` (docs/product.md, "Staff sign-in for the browser").
public enum StaffPasswords {
    public static let minimumLength = 12
    public static let maximumLength = 1024
}
