import HTJSON

/// Rows of a patient's enrolment, profile, activation and web sign-in.
extension AuditDetails {
    /// `patient.enroll`: the profile as stored and the risk it gave.
    struct Enrolled: Encodable, Sendable {
        let profile: JSONText
        let riskScore: Int
        let riskClass: String
        let katBPending: Bool
        let rulesVersion: String
    }

    /// `patient.update`: `{field: {before, after}}` per changed leaf (`ProfilePatch.changes`).
    struct ProfileChanges: Encodable, Sendable {
        let changes: JSONText
    }

    /// `patient.update` when an activation changes `webOnly` (the last activation decides).
    struct WebOnlyChanged: Encodable, Sendable {
        struct Change: Encodable, Sendable {
            var from: Bool
            var to: Bool
        }
        var webOnly: Change
    }

    /// `activation.issue`: a further code for another device (`reissue --add-device`); the
    /// patient's tokens keep working. When it expires, never the code.
    struct AddedDevice: Encodable, Sendable {
        let expiresAt: String
        var addDevice = true
    }

    /// `patient.withdraw`.
    struct Withdrawn: Encodable, Sendable {
        let date: String
        let reason: String
    }

    /// `activation.reissue`: when the new code expires (never the code).
    struct Reissued: Encodable, Sendable {
        let expiresAt: String
    }

    /// `activation.success`; `webOnly`: what the activation said about it (nil: nothing).
    struct Activated: Encodable, Sendable {
        let ip: String
        @OmittedWhenNil var webOnly: Bool? = nil
    }

    /// `activation.lockout`.
    struct ActivationLockout: Encodable, Sendable {
        let ip: String
        let failures: Int
        let lockedUntil: String
    }

    /// `activation.refusedSummary`: the refused attempts from one address (or from all the
    /// others, `addresses` of them) since the last summary, counted per outcome.
    struct RefusedActivations: Encodable, Sendable {
        let ip: String
        let count: Int
        let outcomes: OutcomeCounts
        let since: String
        @OmittedWhenNil var addresses: Int? = nil
    }

    /// `{outcome: count}` for the outcomes that occurred, in the outcomes' declared order.
    struct OutcomeCounts: Encodable, Sendable {
        let counts: [(outcome: String, count: Int)]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NamedKey.self)
            for (outcome, count) in counts { try container.encode(count, forKey: NamedKey(outcome)) }
        }
    }

    /// `patient.signOut` of a web check-in: the address, which token, and the study ID signed
    /// in to next when the sign-out is a switch.
    struct WebSignOut: Encodable, Sendable {
        let ip: String
        var token = "web check-in"
        @OmittedWhenNil var switchedTo: String? = nil
    }
}

/// A member named at run time (an outcome, a field), for payloads whose members are data.
struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
