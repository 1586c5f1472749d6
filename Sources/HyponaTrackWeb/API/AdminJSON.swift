import HTJSON
import HyponaTrackDomain
import HyponaTrackCore

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

extension AuditEntry {
    /// The details as the API returns them: the stored text parsed (never re-encoded: the hash is
    /// over the text); a string holding the raw text if it is not valid JSON (only possible in a
    /// tampered file, which `AuditLog.verify` reports).
    public var details: JSONValue {
        (try? JSONParser.parse(detailsText)) ?? .string(detailsText)
    }
}

extension ReasonDisplay {
    /// `[{code, level, value, threshold}]`, values rounded for display.
    static func json(_ reasons: [StoredReason]) -> JSONValue {
        .array(reasons.map { r in
            let shown = ReasonDisplay(r)
            return ["code": .string(shown.code), "level": .string(shown.level), "value": .double(shown.value),
                    "threshold": .double(shown.threshold)]
        })
    }
}

extension HookStatus {
    /// `GET /v1/hooks/status`: one object per hook.
    static func json(_ hooks: [HookStatus]) -> JSONValue {
        .array(hooks.map { hook in
            let s = hook.summary
            let dead = s.deadLetters.map { d -> JSONValue in
                ["eventId": .string(d.eventId), "type": .string(d.type), "error": .string(d.error), "attempts": .int(d.attempts)]
            }
            return ["name": .string(hook.name), "type": .string(hook.type), "events": .array(hook.events.map { JSONValue.string($0) }),
                    "disabled": .bool(s.disabledAt != nil), "disabledReason": .string(s.disabledReason),
                    "pending": .int(s.pending), "delivered": .int(s.delivered), "deadLetters": .int(s.dead),
                    "oldestPendingAt": .string(s.oldestPendingAt.map { iso8601UTC(milliseconds: $0) }),
                    "lastError": .string(s.lastError), "dead": .array(dead)]
        })
    }
}
