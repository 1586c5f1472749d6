/// What a route touches, declared beside its method and path in the one route table (API and
/// pages alike), so that a scope rule — a staff member reaches only their sites' patients —
/// applies in one place instead of in each handler (docs/product.md, third round, R and S). A
/// route without a declaration fails `RouteTargetTests`.
public enum RouteTarget: Sendable, Equatable {
    /// The patient its `{studyId}` names.
    case patient
    /// A new patient, named in the body (enrolment).
    case enrolment
    /// The alert its `{alertId}` names (so the alert's patient).
    case alert
    /// The proposal its `{proposalId}` names (so the proposal's patient).
    case proposal
    /// The signed-in patient's own record (`/v1/me/…`, `/app/…`, activation with the code).
    case ownRecord
    /// A list or a figure across patients: what it returns is filtered by the scope rule.
    case list
    /// An export of patients' data (CSV files, the backup): its rows are filtered by the scope rule.
    case export
    /// No patient's data: staff management, the sync's and hooks' machinery, health, sign-in,
    /// static files.
    case system
}
