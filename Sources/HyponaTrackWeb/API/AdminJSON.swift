import HTJSON
import HyponaTrackDomain
import HyponaTrackCore

/// The API forms of staff members, backups and the audit trail.
enum AdminJSON {
    static func member(_ m: StaffView) -> JSONValue {
        ["name": .string(m.name), "role": .string(m.role.rawValue), "active": .bool(m.isActive),
         "createdAt": .string(iso8601UTC(milliseconds: m.createdAt)),
         "revokedAt": .string(m.revokedAt.map { iso8601UTC(milliseconds: $0) })]
    }

    /// The token appears here once and never again.
    static func added(_ a: AddedStaff) -> JSONValue {
        ["name": .string(a.staff.name), "role": .string(a.staff.role.rawValue), "token": .string(a.token)]
    }

    /// A rotation's new token: here once and never again.
    static func rotated(_ r: RotatedStaffToken) -> JSONValue { ["name": .string(r.name), "token": .string(r.token)] }

    static func revoked(_ m: StaffView) -> JSONValue {
        ["name": .string(m.name), "role": .string(m.role.rawValue), "active": .bool(m.isActive)]
    }

    static func backup(_ b: BackupReport) -> JSONValue {
        ["path": .string(b.path), "bytes": .int(b.bytes), "createdAt": .string(iso8601UTC(milliseconds: b.createdAt)),
         "integrity": .string(b.integrity), "auditIntact": .bool(b.auditIntact), "auditRows": .int(b.auditRows)]
    }

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
    static func verification(_ v: AuditVerification) -> JSONValue {
        ["intact": .bool(v.isIntact), "rowsChecked": .int(v.rowsChecked),
         "firstBrokenSeq": v.firstBrokenSeq.map { .number(Double($0)) } ?? .null, "reason": .string(v.reason),
         "lastSeq": v.lastSeq.map { .number(Double($0)) } ?? .null, "lastHash": .string(v.lastHash),
         "checkpoint": v.checkpoint.map { c in
             ["checkpoint": .string(c.checkpoint.description), "matches": .bool(c.matches), "reason": .string(c.reason)]
         } ?? .null]
    }

    static func checkpoint(_ c: (checkpoint: AuditCheckpoint, hooks: [String])) -> JSONValue {
        ["seq": .number(Double(c.checkpoint.seq)), "hash": .string(c.checkpoint.hash), "checkpoint": .string(c.checkpoint.description),
         "hooks": .array(c.hooks.map { .string($0) })]
    }
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
