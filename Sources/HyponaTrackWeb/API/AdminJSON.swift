import HTJSON
import HyponaTrackDomain

/// The API forms of staff members, backups and the audit trail (its entries, `entry`, are still
/// written twice: their details are being retyped in the domain).
enum AdminJSON {
    static let role = JSONForm<Role>.oneOf(Role.allCases)

    static let member = ResponseShape<StaffView>(nil, [
        .member("name", .string) { $0.name },
        .member("role", role) { $0.role },
        .member("active", .bool) { $0.isActive },
        .member("createdAt", .instant) { $0.createdAt },
        .member("revokedAt", .nullable(.instant)) { $0.revokedAt },
    ])

    /// The token appears here once and never again.
    static let added = ResponseShape<AddedStaff>(nil, [
        .member("name", .string) { $0.staff.name },
        .member("role", role) { $0.staff.role },
        .member("token", .string) { $0.token },
    ])

    /// A rotation's new token: here once and never again.
    static let rotated = ResponseShape<RotatedStaffToken>(nil, [
        .member("name", .string) { $0.name },
        .member("token", .string) { $0.token },
    ])

    static let revoked = ResponseShape<StaffView>(nil, [
        .member("name", .string) { $0.name },
        .member("role", role) { $0.role },
        .member("active", .bool) { $0.isActive },
    ])

    static let backup = ResponseShape<BackupReport>(nil, [
        .member("path", .string) { $0.path },
        .member("bytes", .integer) { $0.bytes },
        .member("createdAt", .instant) { $0.createdAt },
        .member("integrity", .string) { $0.integrity },
        .member("auditIntact", .bool) { $0.auditIntact },
        .member("auditRows", .integer) { $0.auditRows },
    ])

    /// `{"seq", "at" (ISO 8601 UTC), "actor", "action", "subject", "details", "hash"}`.
    static func entry(_ e: AuditEntry) -> JSONValue {
        .object(JSONObject([
            ("seq", .number(Double(e.seq))),
            ("at", .string(iso8601UTC(milliseconds: e.at))),
            ("actor", .string(e.actor)),
            ("action", .string(e.action)),
            ("subject", .string(e.subject)),
            ("details", e.details),
            ("hash", .string(e.hash)),
        ]))
    }

    /// `intact` is false when the chain is broken or does not match the checkpoint given.
    static let verification = ResponseShape<AuditVerification>(nil, [
        .member("intact", .bool) { $0.isIntact },
        .member("rowsChecked", .integer) { $0.rowsChecked },
        .member("firstBrokenSeq", .nullable(.id)) { $0.firstBrokenSeq },
        .member("reason", .nullable(.string)) { $0.reason },
        .member("lastSeq", .nullable(.id)) { $0.lastSeq },
        .member("lastHash", .nullable(.string)) { $0.lastHash },
        .member("checkpoint", .nullable(.object(comparison))) { $0.checkpoint },
    ])

    static let comparison = ResponseShape<AuditVerification.CheckpointComparison>(nil, [
        .member("checkpoint", .string) { $0.checkpoint.description },
        .member("matches", .bool) { $0.matches },
        .member("reason", .nullable(.string)) { $0.reason },
    ])

    static let checkpoint = ResponseShape<(checkpoint: AuditCheckpoint, hooks: [String])>(nil, [
        .member("seq", .id) { $0.checkpoint.seq },
        .member("hash", .string) { $0.checkpoint.hash },
        .member("checkpoint", .string) { $0.checkpoint.description },
        .member("hooks", .array(.string)) { $0.hooks },
    ])
}
