extension AuditDetails {
    /// `staff.add`, the bootstrap admin.
    struct StaffRole: Encodable, Sendable {
        let role: String
    }

    /// `staff.revoke`, `staff.rotate`: the role and the console sessions ended with the token.
    struct StaffSessions: Encodable, Sendable {
        let role: String
        let sessionsEnded: Int
    }

    /// `staff.password`.
    struct SessionsEnded: Encodable, Sendable {
        let sessionsEnded: Int
    }

    /// `console.lockout`.
    struct ConsoleLockout: Encodable, Sendable {
        let ip: String
        let failures: Int
        let lockedSeconds: Int
    }

    /// `staff.recover`: when the admin was created offline (the row is written at the next start).
    struct StaffRecovery: Encodable, Sendable {
        let role: String
        let createdAt: String
    }

    /// `staff.mfa_reset`.
    struct MFAReset: Encodable, Sendable {
        let recoveryCodesUnused: Int
        let sessionsEnded: Int
    }

    /// `console.recovery_code`.
    struct RecoveryCodeUsed: Encodable, Sendable {
        let ip: String
        let recoveryCodesLeft: Int
    }
}

extension AuditDetails {
    /// `staff.oidc_bind`: the member bound to the provider's subject at the first sign-in.
    struct ProviderSubject: Encodable, Sendable {
        let issuer: String
        let subject: String
        let ip: String
    }

    /// `console.sign_in` through the provider.
    struct ProviderSignIn: Encodable, Sendable {
        let ip: String
        let issuer: String
    }

    /// `staff.add` by the provider's first sign-in: the role and sites its groups map to.
    struct ProviderStaff: Encodable, Sendable {
        let role: String
        let sites: [String]
        let allSites: Bool
        let groups: [String]
    }
}
