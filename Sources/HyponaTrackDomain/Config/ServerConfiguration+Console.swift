extension ServerConfiguration {
    /// `console.*`: the browser console's sign-in (docs/product.md, third round, T).
    public struct Console: Sendable {
        /// Members who sign in with a password and have no second factor are sent to set one up
        /// before anything else (a provider's sign-in does its own second factor: exempt).
        public var requireMFA = false
        /// The key the members' TOTP secrets are encrypted with (owner-only, outside the data
        /// directory); nil: systemd's credential `mfa-key`, else `DATA_DIR/../mfa-key`
        /// (`SecondFactorKeySource`), found like the audit key.
        public var mfaKeyFile: String?
        /// Whether the sign-in page offers the password form (false: its POST is refused too).
        public var passwordSignIn = true
        /// Single sign-on with an OpenID provider (nil: none).
        public var oidc: SingleSignOn?

        public init() {}
    }

    /// `console.oidc`: an OpenID Connect provider the console's members sign in with.
    public struct SingleSignOn: Sendable {
        /// The provider's issuer URL (`https://`, or `http://` on loopback); discovery is read
        /// from `{issuer}/.well-known/openid-configuration`.
        public var issuer: String
        public var clientId: String
        /// An owner-only file (or systemd's credential `oidc-client-secret`) with the client secret.
        public var clientSecretFile: String?
        /// Where the provider sends the browser back: ends in `/console/oidc/callback`.
        public var redirectURL: String
        public var scopes: [String] = ["openid", "profile"]
        /// The claim that names the staff member (`preferred_username`).
        public var usernameClaim = "preferred_username"
        /// The claim listing the member's groups (nil: no groups, so nobody is created).
        public var groupsClaim: String?
        /// Group → role; a member in several groups gets the highest role.
        public var roles: [String: Role] = [:]
        /// Group → site codes; a member in several groups gets the union.
        public var sites: [String: [String]] = [:]
        /// Username claim value → staff name, for usernames that are not valid staff names.
        public var usernames: [String: String] = [:]
        /// A private CA for the provider's TLS (tests); nil: the system's.
        public var caFile: String?
        /// The display name on the sign-in page's link ("Sign in with …").
        public var displayName = "single sign-on"

        public init(issuer: String, clientId: String, redirectURL: String) {
            self.issuer = issuer
            self.clientId = clientId
            self.redirectURL = redirectURL
        }

        public static let callbackPath = "/console/oidc/callback"

        /// Why `issuer` cannot be an issuer, or nil: `https://`, or `http://` to a loopback host.
        public static func issuerProblem(_ issuer: String) -> String? {
            guard isSecure(issuer) else { return "must be an https:// URL (http:// only on loopback)" }
            return issuer.hasSuffix("/") ? "must not end with /" : nil
        }

        /// `https://`, or `http://` to a loopback address (codes and tokens travel there).
        public static func isSecure(_ url: String) -> Bool {
            let lower = url.lowercased()
            if lower.hasPrefix("https://") { return true }
            for host in ["http://127.0.0.1", "http://localhost", "http://[::1]"] where lower.hasPrefix(host) {
                let rest = lower.dropFirst(host.count)
                if rest.isEmpty || rest.hasPrefix(":") || rest.hasPrefix("/") { return true }
            }
            return false
        }

        /// Why `url` cannot be the redirect URL, or nil.
        public static func redirectURLProblem(_ url: String) -> String? {
            let lower = url.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return "must be an http(s):// URL" }
            return url.hasSuffix(callbackPath) ? nil : "must end in \(callbackPath)"
        }
    }
}
