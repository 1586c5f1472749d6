import HTJSON
import HyponaTrackDomain

/// The API forms of the sync's status and reports.
enum SyncJSON {
    /// The `sync` block of `/healthz`: nil when the sync is off.
    static func health(_ s: SyncOutboxStatus?, now ms: Int64) -> JSONValue {
        guard let s else { return ["enabled": false, "halted": false, "pending": 0, "oldestPendingSeconds": nil, "deadLetters": 0] }
        return ["enabled": true, "halted": .bool(s.halted), "pending": .int(s.pending),
                "oldestPendingSeconds": oldestPendingSeconds(s, now: ms), "deadLetters": .int(s.dead)]
    }

    static func status(_ status: SyncStatus) -> JSONValue {
        let s = status.outbox
        func time(_ v: Int64?) -> JSONValue { .string(v.map { iso8601UTC(milliseconds: $0) }) }
        return ["enabled": true, "url": .string(status.url), "halted": .bool(s.halted), "haltReason": .string(s.haltReason),
                "haltedAt": time(s.haltedAt), "pending": .int(s.pending), "deadLetters": .int(s.dead),
                "oldestPendingSeconds": oldestPendingSeconds(s, now: status.asOf),
                "lastSuccessAt": time(s.lastSuccessAt), "lastFailureAt": time(s.lastFailureAt), "lastFailure": .string(s.lastFailure),
                "consecutiveFailures": .int(s.consecutiveFailures), "sentRows": .int(s.sentRows),
                "requestsLastMinute": .int(status.requestsLastMinute), "maxRequestsPerMinute": .int(status.maxRequestsPerMinute),
                "dead": .array(s.deadLetters.map { ["record": .string($0.record), "instrument": .string($0.instrument),
                                                    "instance": .int($0.instance), "error": .string($0.error)] })]
    }

    /// Whole seconds the oldest pending row has waited, or null.
    static func oldestPendingSeconds(_ s: SyncOutboxStatus, now ms: Int64) -> JSONValue {
        s.oldestPendingAt.map { .number((Double(ms - $0) / 1000).rounded()) } ?? .null
    }

    static func retry(_ r: RetryResult) -> JSONValue { ["rows": .int(r.rows), "dead": .bool(r.dead)] }

    static func exportAll(_ r: ExportAllResult) -> JSONValue { ["queued": .int(r.queued)] }

    private static func value(_ v: SyncCheckReport.Value?) -> JSONValue {
        switch v {
        case .number(let n)?: return .number(n)
        case .string(let s)?: return .string(s)
        case nil: return .null
        }
    }

    static func check(_ c: SyncCheckReport) -> JSONValue {
        ["redcapVersion": .string(c.redcapVersion), "projectId": value(c.projectId), "projectTitle": value(c.projectTitle),
         "fieldsChecked": .int(c.fieldsChecked), "ok": .bool(c.ok),
         "repeatingCheck": ["scope": .string(c.repeatingCheck.perInstrument ? "instrument" : "project"),
                            "note": .string(c.repeatingCheck.note)],
         "problems": .array(c.problems.map { ["field": .string($0.field), "form": .string($0.form), "problem": .string($0.problem)] })]
    }

    static func reconcile(_ r: ReconcileReport) -> JSONValue {
        ["localRows": .int(r.localRows), "remoteRows": .int(r.remoteRows), "missingInREDCap": .int(r.missingInREDCap),
         "differingFields": .int(r.differingFields), "onlyInREDCap": .int(r.onlyInREDCap), "inSync": .bool(r.inSync),
         "differences": .array(r.differences.map { d in
             ["record": .string(d.record), "instrument": .string(d.instrument), "instance": .int(d.instance),
              "field": .string(d.field), "local": .string(d.local),
              "remote": .string(d.remote), "queued": .bool(d.queued)]
         })]
    }
}
