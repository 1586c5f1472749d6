import Crypto
import Synchronization

/// `POST /console/login` with the code: the second step of a sign-in.
public struct SignInCode: Sendable {
    public var ticket: String
    public var code: String
    public var ip: String

    public init(ticket: String, code: String, ip: String) {
        self.ticket = ticket
        self.code = code
        self.ip = ip
    }
}

extension SessionService {
    /// The code step: the ticket the password step issued (5 minutes, kept in memory; a wrong
    /// code keeps it for another try) and a TOTP or recovery code. Wrong codes count toward the
    /// same per-name lockout as wrong passwords; the count is reset only by a full sign-in.
    public func signIn(_ command: SignInCode) throws -> SignedIn {
        let ms = epochMilliseconds(clock.now())
        guard let secondFactor, let pending = pendingCodes.find(command.ticket, nowMs: ms) else {
            throw DomainError.signIn(.wrongCredentials)
        }
        let key = pending.name.lowercased()
        let startedLockUntil: Int64?
        switch failures.reserve(key, policy: lockout, nowMs: ms) {
        case .locked(let remainingMs):
            pendingCodes.remove(command.ticket)
            throw DomainError.signIn(.locked(retryAfterSeconds: ActivationAttempts.retryAfterSeconds(remainingMs)))
        case .admitted(let until):
            startedLockUntil = until
        }
        let proof = try transactions.write { db -> SecondFactorProof? in
            guard let member = try StaffDirectory.findStaff(db, name: pending.name), member.isActive,
                  let proof = try secondFactor.verify(db, staffId: member.id, code: command.code, at: ms) else { return nil }
            if case .recoveryCode(let left) = proof {
                try AuditLog.append(db, at: ms, actor: "staff:\(member.name)", action: .consoleRecoveryCode, subject: "staff:\(member.name)",
                                    details: AuditDetails.RecoveryCodeUsed(ip: command.ip, recoveryCodesLeft: left))
            }
            return proof
        }
        guard proof != nil, let member = try transactions.read({ db in try StaffDirectory.findStaff(db, name: pending.name) }) else {
            if startedLockUntil != nil {
                pendingCodes.remove(command.ticket)
                try transactions.write { db in
                    try AuditLog.append(db, at: ms, actor: "anonymous", action: .consoleLockout, subject: "staff:\(key)",
                                        details: AuditDetails.ConsoleLockout(ip: command.ip, failures: lockout.maxFailures,
                                                                            lockedSeconds: Int(lockout.lockout.rounded())))
                }
                throw DomainError.signIn(.locked(retryAfterSeconds: Int(lockout.lockout.rounded())))
            }
            throw DomainError.signIn(.wrongCode)
        }
        pendingCodes.remove(command.ticket)
        failures.save(key, failures: 0, lastFailureAt: ms, lockedUntil: nil)
        return try startSession(member, ip: command.ip, at: ms)
    }

    /// Whether `console.requireMFA` sends this member to set up a factor first.
    func mustSetUpSecondFactor(staffId: Int64) throws -> Bool {
        guard requireMFA, let secondFactor else { return false }
        return try !transactions.read { db in try secondFactor.hasActiveFactor(db, staffId: staffId) }
    }
}

/// Sign-ins waiting for their code, in memory: the SHA-256 of a random ticket → the member.
/// Bounded (oldest dropped first); forgotten on restart (the member types the password again).
final class PendingCodeSteps: Sendable {
    static let lifetimeMs: Int64 = 5 * 60 * 1000
    static let capacity = 4096

    struct Pending: Sendable {
        var name: String
        var expiresAt: Int64
    }

    private let table = Mutex([String: Pending]())

    func issue(_ member: StaffMember, nowMs: Int64) throws -> String {
        let ticket = "htm_" + Crypto.hex(try Crypto.randomBytes(32))
        table.withLock { t in
            t = t.filter { $0.value.expiresAt > nowMs }
            if t.count >= Self.capacity, let oldest = t.min(by: { $0.value.expiresAt < $1.value.expiresAt }) { t[oldest.key] = nil }
            t[Self.hash(ticket)] = Pending(name: member.name, expiresAt: nowMs + Self.lifetimeMs)
        }
        return ticket
    }

    func find(_ ticket: String, nowMs: Int64) -> Pending? {
        table.withLock { t in t[Self.hash(ticket)].flatMap { $0.expiresAt > nowMs ? $0 : nil } }
    }

    func remove(_ ticket: String) { table.withLock { t in t[Self.hash(ticket)] = nil } }

    private static func hash(_ ticket: String) -> String { Crypto.hex(Crypto.sha256(Array(ticket.utf8))) }
}
