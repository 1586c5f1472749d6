import HTJSON
import HyponaTrackDomain
import HyponaTrackCore

/// The API forms of staff members, backups and the audit trail.
enum AdminJSON {
    static let role = JSONForm<Role>.oneOf(Role.allCases)

    static let member = ResponseShape<StaffView>(nil, [
        .member("name", .string) { $0.name },
        .member("role", role) { $0.role },
        .member("active", .bool) { $0.isActive },
        .member("createdAt", .instant) { $0.createdAt },
        .member("revokedAt", .nullable(.instant)) { $0.revokedAt },
        .member("sites", .array(.string)) { $0.sites },
        .member("allSites", .bool) { $0.allSites },
    ])

    /// The token appears here once and never again.
    static let added = ResponseShape<AddedStaff>(nil, [
        .member("name", .string) { $0.staff.name },
        .member("role", role) { $0.staff.role },
        .member("sites", .array(.string)) { $0.staff.sites },
        .member("allSites", .bool) { $0.staff.allSites },
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
        .member("schemaVersion", .string) { $0.schemaVersion },
        .member("sha256", .string) { $0.sha256 },
        .member("pruned", .array(.string)) { $0.pruned },
    ])

    /// One row of the audit trail (`GET /v1/audit`).
    static let entry = ResponseShape<AuditEntry>(nil, [
        .member("seq", .id) { $0.seq },
        .member("at", .instant) { $0.at },
        .member("actor", .string) { $0.actor },
        .member("action", .string) { $0.action },
        .member("subject", .nullable(.string)) { $0.subject },
        .member("details", .json(details)) { $0.details },
        .member("hash", .string) { $0.hash },
    ])

    /// The stored details: an object; the raw text as a string when it is not JSON (only in a
    /// tampered file, which `GET /v1/audit/verify` reports).
    static let details: JSONValue = [
        "type": ["object", "string"],
        "description": "the row's details as stored (an object); a string holding the stored text if it is not JSON (a tampered file)",
    ]

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

extension AuditEntry {
    /// The details as the API returns them: the stored text parsed (never re-encoded: the hash is
    /// over the text); a string holding the raw text if it is not valid JSON (only possible in a
    /// tampered file, which `AuditLog.verify` reports).
    public var details: JSONValue {
        (try? JSONParser.parse(detailsText)) ?? .string(detailsText)
    }
}
