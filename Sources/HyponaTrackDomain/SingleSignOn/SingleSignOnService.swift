import Crypto
import Foundation
import HTTPClient
import SQLite

/// Where `GET /console/oidc/start` sends the browser, and the pre-session cookie it sets.
public struct SingleSignOnStart: Sendable {
    public let location: String
    public let cookieValue: String
}

/// What the provider brought back to `GET /console/oidc/callback`.
public struct SingleSignOnCallback: Sendable {
    public var preSessionCookie: String?
    public var state: String?
    public var code: String?
    public var error: String?
    public var ip: String

    public init(preSessionCookie: String?, state: String?, code: String?, error: String?, ip: String) {
        self.preSessionCookie = preSessionCookie
        self.state = state
        self.code = code
        self.error = error
        self.ip = ip
    }
}

/// Console sign-in through an OpenID provider (docs/product.md, third round, T, and its
/// settled details): the authorisation code flow with PKCE S256, `state` and `nonce` bound to a
/// short-lived single-use pre-session, the ID token verified (`IDTokenValidator`), the member
/// matched on the provider's subject, else on the username claim (then bound), else created
/// when the groups map to a role (highest role, union of sites), audited. Codes, tokens and
/// secrets never reach the log; a refusal is logged by its code word only.
public final class SingleSignOnService: Sendable {
    let configuration: ServerConfiguration.SingleSignOn
    let provider: ProviderClient
    let validator: IDTokenValidator
    let transactions: Transactions
    let sessions: SessionService
    let clock: any ServerClock
    let logger: Logger
    let pending = PendingAuthorizations()

    init(configuration: ServerConfiguration.SingleSignOn, clientSecret: String, transactions: Transactions, sessions: SessionService,
         clock: any ServerClock, logger: Logger) {
        self.configuration = configuration
        provider = ProviderClient(configuration: configuration, clientSecret: clientSecret, clock: clock)
        validator = IDTokenValidator(issuer: configuration.issuer, clientId: configuration.clientId,
                                     usernameClaim: configuration.usernameClaim, groupsClaim: configuration.groupsClaim)
        self.transactions = transactions
        self.sessions = sessions
        self.clock = clock
        self.logger = logger
    }

    /// The sign-in page's link text ("Sign in with …").
    public var displayName: String { configuration.displayName }

    /// A new pre-session and the provider's authorisation URL (RFC 6749 §4.1.1, RFC 7636 §4.3).
    public func start(next: String) throws(SingleSignOnRefusal) -> SingleSignOnStart {
        let metadata = try provider.metadata()
        let random = { () throws(SingleSignOnRefusal) -> String in
            do { return Base64.url.encode(try Crypto.randomBytes(32)) } catch { throw .providerUnavailable("no random bytes") }
        }
        let cookie = try random(), state = try random(), nonce = try random(), verifier = try random()
        let challenge = Base64.url.encode(Crypto.sha256(Array(verifier.utf8)))
        let ms = epochMilliseconds(clock.now())
        pending.insert(cookie: cookie, PendingAuthorization(stateHash: Crypto.sha256(Array(state.utf8)), nonce: nonce, verifier: verifier,
                                                            next: next, expiresAt: ms + PendingAuthorizations.lifetimeMs), nowMs: ms)
        let query = FormURLEncoding.encode([("response_type", "code"), ("client_id", configuration.clientId),
                                            ("redirect_uri", configuration.redirectURL), ("scope", configuration.scopes.joined(separator: " ")),
                                            ("state", state), ("nonce", nonce), ("code_challenge", challenge),
                                            ("code_challenge_method", "S256")])
        let separator = metadata.authorization_endpoint.contains("?") ? "&" : "?"
        return SingleSignOnStart(location: metadata.authorization_endpoint + separator + query, cookieValue: cookie)
    }

    /// The provider's answer: the pre-session taken (whatever follows, it is used up), the code
    /// exchanged, the ID token verified, the member found, bound or created, the session started.
    /// Returns the session and the console page to continue to.
    public func finish(_ callback: SingleSignOnCallback) throws(SingleSignOnRefusal) -> (signedIn: SignedIn, next: String) {
        let ms = epochMilliseconds(clock.now())
        do {
            guard let cookie = callback.preSessionCookie, let state = callback.state,
                  let authorization = pending.take(cookie: cookie, state: state, nowMs: ms) else { throw SingleSignOnRefusal.unknownState }
            if let error = callback.error {
                // RFC 6749 §4.1.2.1: an ASCII error code; only a well-formed one is repeated.
                throw SingleSignOnRefusal.providerError(error.utf8.count <= 64 && error.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } ? error : "error")
            }
            guard let code = callback.code, !code.isEmpty else { throw SingleSignOnRefusal.providerError("no code") }
            let idToken = try provider.exchange(code: code, verifier: authorization.verifier)
            let claims = try validator.validate(idToken, nonce: authorization.nonce, now: clock.now()) { kid in provider.key(kid) }
            let signedIn = try signIn(claims, ip: callback.ip, at: ms)
            return (signedIn, authorization.next)
        } catch let refusal as SingleSignOnRefusal {
            var metadata = ["reason": refusal.code, "ip": callback.ip]
            if case .invalidToken(let check) = refusal { metadata["check"] = check }
            if case .providerUnavailable(let what) = refusal { metadata["detail"] = what }
            if case .providerError(let what) = refusal { metadata["detail"] = what }
            logger.warning("single sign-on refused", metadata)
            throw refusal
        } catch {
            logger.error("single sign-on failed", ["error": String(describing: type(of: error))])
            throw .providerUnavailable("internal")
        }
    }

    /// Where sign-out sends a member who came through the provider (its `end_session_endpoint`
    /// with the client and our sign-in page to return to, beside `redirectURL`), or nil when it
    /// offers none.
    public func logoutLocation() -> String? {
        guard let endpoint = try? provider.metadata().end_session_endpoint else { return nil }
        let base = configuration.redirectURL.dropLast(ServerConfiguration.SingleSignOn.callbackPath.count)
        let query = FormURLEncoding.encode([("client_id", configuration.clientId), ("post_logout_redirect_uri", base + "/console/login")])
        return endpoint + (endpoint.contains("?") ? "&" : "?") + query
    }

    /// The member for the verified claims, in one write: bound subject → that member; else the
    /// staff name of the username claim (bound now); else created from the groups.
    func signIn(_ claims: IDTokenClaims, ip: String, at ms: Int64) throws -> SignedIn {
        let issuer = configuration.issuer
        let cookie = try SessionService.newCookie()
        let (member, id) = try transactions.write { db throws -> (StaffMember, Int64) in
            var member: StaffMember
            if let bound = try SingleSignOnRepository.member(db, issuer: issuer, subject: claims.subject) {
                member = bound
            } else {
                guard let claimed = claims.username else { throw SingleSignOnRefusal.invalidUsername }
                let name = configuration.usernames[claimed] ?? claimed
                guard StaffDirectory.isValidName(name) else { throw SingleSignOnRefusal.invalidUsername }
                if let existing = try StaffDirectory.findStaff(db, name: name) {
                    guard existing.isActive else { throw SingleSignOnRefusal.revoked }
                    guard try !SingleSignOnRepository.isBound(db, issuer: issuer, staffId: existing.id) else { throw SingleSignOnRefusal.boundElsewhere }
                    member = existing
                } else {
                    member = try create(db, name: name, groups: claims.groups, at: ms)
                }
                try SingleSignOnRepository.bind(db, issuer: issuer, subject: claims.subject, staffId: member.id, at: ms)
                try AuditLog.append(db, at: ms, actor: "staff:\(member.name)", action: .staffOIDCBind, subject: "staff:\(member.name)",
                                    details: AuditDetails.ProviderSubject(issuer: issuer, subject: claims.subject, ip: ip))
            }
            guard member.isActive else { throw SingleSignOnRefusal.revoked }
            let id = try SessionService.createSession(db, cookie: cookie, member: member, ip: ip, at: ms, policy: sessions.policy, provider: issuer)
            return (member, id)
        }
        return SignedIn(cookieValue: cookie, session: WebSession(id: id, name: member.name, role: member.role,
                                                                 csrfToken: SessionService.csrfToken(cookie), viaProvider: true))
    }

    /// A new member from the groups: the highest role any of them maps to, the union of their
    /// sites (an admin works for every site); none maps to a role → refused.
    func create(_ db: Connection, name: String, groups: [String], at ms: Int64) throws -> StaffMember {
        let roles = groups.compactMap { configuration.roles[$0] }
        guard let role = [Role.admin, .nurse, .viewer].first(where: roles.contains) else { throw SingleSignOnRefusal.noRole }
        var codes: [String] = []
        for group in groups { for code in configuration.sites[group] ?? [] where !codes.contains(code) { codes.append(code) } }
        let actor = "system:oidc"
        let resolvedSites: (allSites: Bool, ids: [Int64], codes: [String])
        do { resolvedSites = try SiteService.resolve(db, StaffSites(sites: role == .admin ? [] : codes), role: role) } catch is DomainError {
            throw SingleSignOnRefusal.noSite
        }
        let (allSites, ids, resolved) = resolvedSites
        let (member, _) = try StaffDirectory.createStaff(db, name: name, role: role, by: actor, now: Double(ms) / 1000)
        try SiteRepository.setStaffSites(db, staffId: member.id, allSites: allSites, sites: ids)
        try AuditLog.append(db, at: ms, actor: actor, action: .staffAdd, subject: "staff:\(member.name)",
                            details: AuditDetails.ProviderStaff(role: role.rawValue, sites: resolved, allSites: allSites,
                                                                groups: groups.filter { configuration.roles[$0] != nil }.sorted()))
        return member
    }
}
