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

    /// The staff role, or nil for a patient (patients have no staff permissions at all).
    public var staffRole: Role? {
        if case .staff(_, _, let role) = self { return role }
        return nil
    }
}
