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
