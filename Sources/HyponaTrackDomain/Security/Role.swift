/// A staff role (docs/product.md, "Roles"). Each role includes everything the one below it may do:
/// `viewer` reads; `nurse` also enrolls, updates profiles, enters labs, acknowledges and
/// resolves alerts and reissues activation; `admin` also manages staff, sync commands and
/// backups.
public enum Role: String, Sendable, CaseIterable, Equatable {
    case admin
    case nurse
    case viewer

    /// May read patients, timelines, alerts, sync status and the audit trail.
    public var canRead: Bool { true }

    /// May change clinical data: enroll, update, withdraw, lab values, list-item deletion,
    /// alert acknowledgement and resolution, activation reissue (nurse level).
    public var canWrite: Bool { self == .admin || self == .nurse }

    /// May manage staff, run sync commands and take backups (admin level).
    public var canAdmin: Bool { self == .admin }
}
