/// Who a request acts for, as established by `Authenticator.authenticate`.
public enum Principal: Sendable, Equatable {
    /// A staff member with a valid, unrevoked staff token.
    case staff(id: Int64, name: String, role: Role)
    /// An activated, not withdrawn patient with a valid patient token. Such a principal may
    /// reach only this patient's data.
    case patient(patientId: Int64, studyId: String)

    /// The actor string recorded in the audit trail: `staff:<name>` or `patient:<studyId>`.
    public var auditActor: String {
        switch self {
        case .staff(_, let name, _): return "staff:\(name)"
        case .patient(_, let studyId): return "patient:\(studyId)"
        }
    }

    /// The staff member's name in an actor string `staff:<name>`; nil for any other actor.
    public static func staffName(inActor actor: String) -> String? {
        actor.hasPrefix("staff:") ? String(actor.dropFirst("staff:".count)) : nil
    }

    /// An actor as people read it: a staff member by name, without `staff:`; any other actor
    /// (`patient:<studyId>`, `system`) as recorded, so a patient's own action stays theirs.
    public static func displayName(ofActor actor: String) -> String { staffName(inActor: actor) ?? actor }

    /// The staff role, or nil for a patient (patients have no staff permissions at all).
    public var staffRole: Role? {
        if case .staff(_, _, let role) = self { return role }
        return nil
    }
}
