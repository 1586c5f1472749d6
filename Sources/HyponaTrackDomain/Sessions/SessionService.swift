import Crypto
import SQLite

/// How long a console session lasts (docs/product.md, "Staff sign-in for the browser").
public struct SessionPolicy: Sendable {
    public var idleSeconds: Double = 30 * 60
    public var absoluteSeconds: Double = 12 * 3600
    /// `last_seen_at` is written at most this often (a page view is a read, not a write).
    public var touchEverySeconds: Double = 60

    public init() {}
}

/// `POST /console/login`.
public struct SignIn: Sendable {
    public var name: String
    public var password: String
    public var ip: String

    public init(name: String, password: String, ip: String) {
        self.name = name
        self.password = password
        self.ip = ip
    }
}

/// A signed-in member in a request: who, their role, and the session's CSRF token.
public struct WebSession: Sendable {
    public var id: Int64
    public var name: String
    public var role: Role
    /// Bound to the session: SHA-256 over the cookie value, never stored.
    public var csrfToken: String
    /// `console.requireMFA` is on and the member has no active second factor: every page but
    /// the set-up page and sign-out sends them there.
    public var mustSetUpSecondFactor = false
    /// Signed in through the OpenID provider: sign-out leads to the provider's logout too.
    public var viaProvider = false

    public var actor: String { "staff:\(name)" }
}

/// A new session: the cookie value exists in plain text only here.
public struct SignedIn: Sendable {
    public var cookieValue: String
    public var session: WebSession
}

/// What a right password leads to: a session, or (the member has a second factor) the code
/// step, carried by a one-time ticket the sign-in form sends back with the code.
public enum SignInOutcome: Sendable {
    case signedIn(SignedIn)
    case needsCode(ticket: String)
}

/// Console sessions: sign-in with the per-name lockout (in memory, like unenrolled activation
/// IDs: a flood of guesses writes nothing; each attempt is counted before its password is
/// checked, so parallel attempts cannot slip past the limit), the session behind a cookie,
/// sign-out. Successful sign-ins, sign-outs and each lockout are audited; single failures are
/// counted, not stored.
public final class SessionService: Sendable {
    let transactions: Transactions
    let clock: any ServerClock
    let policy: SessionPolicy
    let lockout: ActivationPolicy
    let failures = UnenrolledActivationAttempts()
    let metrics: Metrics?
    let secondFactor: SecondFactorService?
    let requireMFA: Bool
    let pendingCodes = PendingCodeSteps()

    /// Bounds the password checks running and waiting at once (PBKDF2 costs most of a second).
    let passwordChecks: AdmissionGate

    init(transactions: Transactions, clock: any ServerClock, policy: SessionPolicy = SessionPolicy(),
         lockout: ActivationPolicy = .standard, metrics: Metrics? = nil,
         passwordChecks: AdmissionGate = .passwordChecks(), secondFactor: SecondFactorService? = nil, requireMFA: Bool = false) {
        self.secondFactor = secondFactor
        self.requireMFA = requireMFA
        self.transactions = transactions
        self.clock = clock
        self.policy = policy
        self.lockout = lockout
        self.metrics = metrics
        self.passwordChecks = passwordChecks
    }

    public func signIn(_ command: SignIn) throws -> SignInOutcome {
        let key = command.name.lowercased()
        // The attempt is counted before its password is checked (the hash takes most of a
        // second): attempts in parallel each see the ones before them, so a burst gets no more
        // checks than the limit, and one of them starts the lock.
        let startedLockUntil: Int64?
        switch failures.reserve(key, policy: lockout, nowMs: epochMilliseconds(clock.now())) {
        case .locked(let remainingMs):
            throw DomainError.signIn(.locked(retryAfterSeconds: ActivationAttempts.retryAfterSeconds(remainingMs)))
        case .admitted(let until):
            startedLockUntil = until
        }
        let member: StaffMember? = try transactions.read { db in
            guard StaffDirectory.isValidName(command.name), let m = try StaffDirectory.findStaff(db, name: command.name),
                  m.isActive else { return nil }
            return m
        }
        let hash = try member.map { m in try transactions.read { db in try SessionRepository.passwordHash(db, staffId: m.id) } } ?? nil
        // The same work for an unknown name, a member without a password and a wrong password,
        // when the gate gives it a turn (nil: too many checks in already; the attempt stays counted).
        let checked = passwordChecks.run { PasswordHash.verify(command.password, against: hash ?? PasswordHash.decoy) && hash != nil }
        let ms = epochMilliseconds(clock.now())
        guard checked == true, let member else {
            if startedLockUntil != nil {
                try transactions.write { db in
                    try AuditLog.append(db, at: ms, actor: "anonymous", action: .consoleLockout, subject: "staff:\(key)",
                                        details: AuditDetails.ConsoleLockout(ip: command.ip, failures: lockout.maxFailures,
                                                                            lockedSeconds: Int(lockout.lockout.rounded())))
                }
            }
            if checked == nil {
                throw DomainError.busy(.signIns, retryAfterSeconds: AdmissionGate.retryAfterSeconds)
            }
            throw DomainError.signIn(.wrongCredentials)
        }
        if let secondFactor, try transactions.read({ db in try secondFactor.hasActiveFactor(db, staffId: member.id) }) {
            // The right password takes back its own count but not the earlier ones: wrong codes
            // before and after it add up to the lock, and only a full sign-in resets it.
            let before = failures.attempts(key)?.failures ?? 1
            failures.save(key, failures: max(0, before - 1), lastFailureAt: ms, lockedUntil: nil)
            return .needsCode(ticket: try pendingCodes.issue(member, nowMs: ms))
        }
        failures.save(key, failures: 0, lastFailureAt: ms, lockedUntil: nil)
        return .signedIn(try startSession(member, ip: command.ip, at: ms))
    }

    /// A new session for `member` (after the password, and the code when they have a factor).
    func startSession(_ member: StaffMember, ip: String, at ms: Int64, recoveryCodesLeft: Int? = nil) throws -> SignedIn {
        let cookie = try Self.newCookie()
        let id = try transactions.write { db -> Int64 in
            try Self.createSession(db, cookie: cookie, member: member, ip: ip, at: ms, policy: policy, provider: nil)
        }
        let mustSetUp = try mustSetUpSecondFactor(staffId: member.id)
        return SignedIn(cookieValue: cookie, session: WebSession(id: id, name: member.name, role: member.role,
                                                                 csrfToken: Self.csrfToken(cookie), mustSetUpSecondFactor: mustSetUp))
    }

    static func newCookie() throws -> String { "htc_" + Crypto.hex(try Crypto.randomBytes(32)) }

    /// Inside the caller's write: old sessions pruned, the new one stored (only its hash) and
    /// audited; `provider`: the issuer it came through (nil: the password).
    static func createSession(_ db: Connection, cookie: String, member: StaffMember, ip: String, at ms: Int64, policy: SessionPolicy,
                              provider: String?) throws -> Int64 {
        try SessionRepository.prune(db, idleBefore: ms - Int64(policy.idleSeconds * 1000),
                                    createdBefore: ms - Int64(policy.absoluteSeconds * 1000))
        let id = try SessionRepository.create(db, tokenHash: tokenHash(cookie), staffId: member.id, ip: ip, at: ms, viaProvider: provider != nil)
        if let provider {
            try AuditLog.append(db, at: ms, actor: "staff:\(member.name)", action: .consoleSignIn, subject: "staff:\(member.name)",
                                details: AuditDetails.ProviderSignIn(ip: ip, issuer: provider))
        } else {
            try AuditLog.append(db, at: ms, actor: "staff:\(member.name)", action: .consoleSignIn, subject: "staff:\(member.name)",
                                details: AuditDetails.FromAddress(ip: ip))
        }
        return id
    }

    /// The live session behind a cookie value, or nil (unknown, ended, idle or too old, or the
    /// member revoked). Refreshes its idle clock at most once a minute — unless `touch` is false:
    /// a page that reloads itself (the ward board on a wall screen) is not someone at the
    /// keyboard, so the session still ends 30 minutes after the last real request.
    public func session(cookie: String, touch: Bool = true) throws -> WebSession? {
        guard cookie.hasPrefix("htc_"), cookie.utf8.count == 68 else { return nil }
        let hash = Self.tokenHash(cookie)
        let ms = epochMilliseconds(clock.now())
        guard let stored = try transactions.read({ db in try SessionRepository.find(db, tokenHash: hash) }) else { return nil }
        let idle = Double(ms - stored.lastSeenAt) / 1000, age = Double(ms - stored.createdAt) / 1000
        if idle > policy.idleSeconds || age > policy.absoluteSeconds || !stored.staff.isActive {
            try transactions.write { db in _ = try SessionRepository.end(db, id: stored.id) }
            return nil
        }
        if touch && idle > policy.touchEverySeconds {
            try transactions.write { db in try SessionRepository.touch(db, id: stored.id, at: ms) }
        }
        // `requireMFA` covers password sign-in only: a provider does its own second factor.
        return WebSession(id: stored.id, name: stored.staff.name, role: stored.staff.role, csrfToken: Self.csrfToken(cookie),
                          mustSetUpSecondFactor: stored.viaProvider ? false : try mustSetUpSecondFactor(staffId: stored.staff.id),
                          viaProvider: stored.viaProvider)
    }

    public func signOut(_ session: WebSession, ip: String) throws {
        let ms = epochMilliseconds(clock.now())
        try transactions.write { db in
            guard try SessionRepository.end(db, id: session.id) > 0 else { return }
            try AuditLog.append(db, at: ms, actor: session.actor, action: .consoleSignOut, subject: session.actor,
                                details: AuditDetails.FromAddress(ip: ip))
        }
    }

    static func tokenHash(_ cookie: String) -> String { Crypto.hex(Crypto.sha256(Array(cookie.utf8))) }

    static func csrfToken(_ cookie: String) -> String { Crypto.hex(Crypto.sha256(Array(("csrf:" + cookie).utf8))) }
}
