import Crypto
import Foundation
import SQLite

/// A second factor just set up: the secret as an `otpauth://` URI and the recovery codes, in
/// plain text only here (shown once).
public struct SecondFactorEnrolment: Sendable, Equatable {
    public var name: String
    public var otpauthURI: String
    /// The secret in base32, for typing it into an app by hand.
    public var secret: String
    public var recoveryCodes: [String]
}

/// How a code was accepted.
enum SecondFactorProof: Equatable {
    case totp
    case recoveryCode(left: Int)
}

/// TOTP second factors (docs/product.md, third round, T): set up (pending), confirmed with a
/// first code, checked at console sign-in, reset by an admin. Every change is audited; the
/// secret and the codes never reach the audit trail or a log.
public final class SecondFactorService: Sendable {
    static let issuer = "HyponaTrack"
    static let recoveryCodeCount = 10
    static let secretByteCount = 20

    let transactions: Transactions
    let clock: any ServerClock
    let key: SecondFactorKey

    init(transactions: Transactions, clock: any ServerClock, key: SecondFactorKey) {
        self.transactions = transactions
        self.clock = clock
        self.key = key
    }

    /// A new pending factor for `name`. Refused (409) while the member has an active factor: an
    /// admin resets it first. An admin may set one up for another member only when that member
    /// has none (the route lets admins and the member themself in).
    public func setUp(name: String, actor: String) throws -> SecondFactorEnrolment {
        var secret = try Crypto.randomBytes(Self.secretByteCount)
        defer { Crypto.wipe(&secret) }
        let codes = try (0..<Self.recoveryCodeCount).map { _ in try Self.newRecoveryCode() }
        let ms = epochMilliseconds(clock.now())
        let member = try transactions.write { db -> StaffMember in
            guard let member = try StaffDirectory.findStaff(db, name: name), member.isActive else {
                throw DomainError.notFound("no active staff member named \(name)")
            }
            if try SecondFactorRepository.isActive(db, staffId: member.id) {
                throw DomainError.conflict("\(member.name) has an active second factor; an admin resets it first (staff mfa NAME --reset)")
            }
            try SecondFactorRepository.replacePending(db, staffId: member.id, sealed: try key.seal(secret, staffId: member.id),
                                                      fingerprint: key.fingerprint,
                                                      recoveryHashes: codes.map { key.recoveryHash(Self.normalized($0), staffId: member.id) },
                                                      by: actor, at: ms)
            try AuditLog.append(db, at: ms, actor: actor, action: .staffMFASetUp, subject: "staff:\(member.name)", details: AuditDetails.None())
            return member
        }
        let base32 = Base32.encode(secret)
        return SecondFactorEnrolment(name: member.name, otpauthURI: Self.otpauthURI(name: member.name, secret: base32),
                                     secret: base32, recoveryCodes: codes)
    }

    /// Activates `name`'s pending factor with a first TOTP code; a wrong code is refused naming `code`.
    public func confirm(name: String, code: String, actor: String) throws {
        let ms = epochMilliseconds(clock.now())
        try transactions.write { db in
            guard let member = try StaffDirectory.findStaff(db, name: name), member.isActive,
                  let factor = try SecondFactorRepository.find(db, staffId: member.id) else {
                throw DomainError.notFound("\(name) has no second factor set up (staff mfa NAME first)")
            }
            guard factor.activeAt == nil else { throw DomainError.conflict("\(member.name)'s second factor is active already") }
            guard let step = try matchingStep(factor, staffId: member.id, code: code, at: ms),
                  try SecondFactorRepository.acceptStep(db, staffId: member.id, step: step, at: ms) else {
                throw DomainError.invalid("code", "not the current 6-digit code of this set-up")
            }
            try AuditLog.append(db, at: ms, actor: actor, action: .staffMFAConfirm, subject: "staff:\(member.name)", details: AuditDetails.None())
        }
    }

    /// Removes `name`'s factor (pending or active) and ends their console sessions.
    public func reset(name: String, actor: String) throws {
        let ms = epochMilliseconds(clock.now())
        try transactions.write { db in
            guard let member = try StaffDirectory.findStaff(db, name: name) else { throw DomainError.notFound("no staff member named \(name)") }
            let unused = try SecondFactorRepository.unusedRecoveryCodes(db, staffId: member.id)
            guard try SecondFactorRepository.remove(db, staffId: member.id) else {
                throw DomainError.notFound("\(member.name) has no second factor")
            }
            let sessions = try SessionRepository.endAll(db, staffId: member.id)
            try AuditLog.append(db, at: ms, actor: actor, action: .staffMFAReset, subject: "staff:\(member.name)",
                                details: AuditDetails.MFAReset(recoveryCodesUnused: unused, sessionsEnded: sessions))
        }
    }

    public func hasActiveFactor(name: String) throws -> Bool {
        try transactions.read { db in
            guard let member = try StaffDirectory.findStaff(db, name: name) else { return false }
            return try SecondFactorRepository.isActive(db, staffId: member.id)
        }
    }

    func hasActiveFactor(_ db: Connection, staffId: Int64) throws -> Bool { try SecondFactorRepository.isActive(db, staffId: staffId) }

    /// Checks a sign-in code of an active factor inside the caller's write transaction: a TOTP
    /// code of a step not used before, or an unused recovery code (used up here). Nil: wrong.
    func verify(_ db: Connection, staffId: Int64, code: String, at ms: Int64) throws -> SecondFactorProof? {
        guard let factor = try SecondFactorRepository.find(db, staffId: staffId), factor.activeAt != nil else { return nil }
        let trimmed = code.trimmingCharacters(in: .whitespaces)
        if trimmed.utf8.count == TOTP.digits, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard let step = try matchingStep(factor, staffId: staffId, code: trimmed, at: ms) else { return nil }
            return try SecondFactorRepository.acceptStep(db, staffId: staffId, step: step, at: ms) ? .totp : nil
        }
        let normalized = Self.normalized(trimmed)
        guard normalized.utf8.count == 10,
              try SecondFactorRepository.useRecoveryCode(db, staffId: staffId, hash: key.recoveryHash(normalized, staffId: staffId), at: ms) else {
            return nil
        }
        return .recoveryCode(left: try SecondFactorRepository.unusedRecoveryCodes(db, staffId: staffId))
    }

    private func matchingStep(_ factor: StoredSecondFactor, staffId: Int64, code: String, at ms: Int64) throws -> Int64? {
        guard factor.keyFingerprint == key.fingerprint else {
            throw DomainError.integrity("the second factor was sealed under another key (\(factor.keyFingerprint)); the daemon has \(key.fingerprint)")
        }
        guard var secret = key.open(factor.sealedSecret, staffId: staffId) else {
            throw DomainError.integrity("a stored second factor does not open under the second-factor key")
        }
        defer { Crypto.wipe(&secret) }
        guard code.utf8.count == TOTP.digits else { return nil }
        return TOTP.matchingStep(secret: secret, code: code, around: TOTP.step(atSeconds: ms / 1000))
    }

    static func otpauthURI(name: String, secret: String) -> String {
        let label = "\(issuer):\(name)".addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._:"))) ?? name
        return "otpauth://totp/\(label)?secret=\(secret)&issuer=\(issuer)&algorithm=SHA1&digits=\(TOTP.digits)&period=\(TOTP.stepSeconds)"
    }

    /// Ten characters of base32 (50 bits), shown as `xxxxx-xxxxx`.
    static func newRecoveryCode() throws -> String {
        let text = Base32.encode(try Crypto.randomBytes(7)).lowercased()
        return String(text.prefix(5)) + "-" + String(text.dropFirst(5).prefix(5))
    }

    /// A recovery code as typed: case, spaces and hyphens do not matter.
    static func normalized(_ code: String) -> String {
        String(code.lowercased().unicodeScalars.filter { $0 != "-" && $0 != " " }.map(Character.init))
    }
}
