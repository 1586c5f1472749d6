extension ServerConfiguration {
    /// `console.*`: the browser console's sign-in (docs/product.md, third round, T).
    public struct Console: Sendable {
        /// Members who sign in with a password and have no second factor are sent to set one up
        /// before anything else.
        public var requireMFA = false
        /// The key the members' TOTP secrets are encrypted with (owner-only, outside the data
        /// directory); nil: systemd's credential `mfa-key`, else `DATA_DIR/../mfa-key`
        /// (`SecondFactorKeySource`), found like the audit key.
        public var mfaKeyFile: String?

        public init() {}
    }
}
