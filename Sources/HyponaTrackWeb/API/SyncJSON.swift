import HTJSON
import HyponaTrackDomain

/// The API forms of the sync's status and reports, each declared once for the encoder and
/// `/openapi.json` (`ResponseShape`).
enum SyncJSON {
    /// The `sync` block of `/healthz`: `enabled` false (and nothing pending) when the sync is off.
    static let health = ResponseShape<Health>(nil, [
        .member("enabled", .bool) { $0.sync != nil },
        .member("halted", .bool) { $0.sync?.halted ?? false },
        .member("pending", .integer) { $0.sync?.pending ?? 0 },
        .member("oldestPendingSeconds", .nullable(wholeSeconds)) { h in h.sync.flatMap { oldestPendingSeconds($0, now: h.checkedAt) } },
        .member("deadLetters", .integer) { $0.sync?.dead ?? 0 },
    ])

    /// `GET /v1/sync/status`, `POST /v1/sync/resume`.
    static let status = ResponseShape<SyncStatus>(nil, [
        .member("enabled", .bool) { _ in true },
        .member("url", .string) { $0.url },
        .member("halted", .bool) { $0.outbox.halted },
        .member("haltReason", .nullable(.string)) { $0.outbox.haltReason },
        .member("haltedAt", .nullable(.instant)) { $0.outbox.haltedAt },
        .member("pending", .integer) { $0.outbox.pending },
        .member("deadLetters", .integer) { $0.outbox.dead },
        .member("oldestPendingSeconds", .nullable(wholeSeconds)) { oldestPendingSeconds($0.outbox, now: $0.asOf) },
        .member("lastSuccessAt", .nullable(.instant)) { $0.outbox.lastSuccessAt },
        .member("lastFailureAt", .nullable(.instant)) { $0.outbox.lastFailureAt },
        .member("lastFailure", .nullable(.string)) { $0.outbox.lastFailure },
        .member("consecutiveFailures", .integer) { $0.outbox.consecutiveFailures },
        .member("sentRows", .integer) { $0.outbox.sentRows },
        .member("requestsLastMinute", .integer) { $0.requestsLastMinute },
        .member("maxRequestsPerMinute", .integer) { $0.maxRequestsPerMinute },
        .member("dead", .array(.object(deadLetter))) { $0.outbox.deadLetters },
    ])

    static let deadLetter = ResponseShape<(record: String, instrument: String, instance: Int, error: String?)>(nil, [
        .member("record", .string) { $0.record },
        .member("instrument", .string) { $0.instrument },
        .member("instance", .integer) { $0.instance },
        .member("error", .nullable(.string)) { $0.error },
    ])

    /// Whole seconds (a number rounded to the second).
    static let wholeSeconds = JSONForm<Double>.number(S.anyInteger)

    /// Whole seconds the oldest pending row has waited at `ms`, or nil.
    static func oldestPendingSeconds(_ s: SyncOutboxStatus, now ms: Int64) -> Double? {
        s.oldestPendingAt.map { (Double(ms - $0) / 1000).rounded() }
    }

    static let retry = ResponseShape<RetryResult>(nil, [
        .member("rows", .integer) { $0.rows },
        .member("dead", .bool) { $0.dead },
    ])

    static let exportAll = ResponseShape<ExportAllResult>(nil, [
        .member("queued", .integer) { $0.queued },
    ])

    /// A value of REDCap's project info: a number or a string as REDCap wrote it, null when absent.
    static let projectValue = JSONForm<SyncCheckReport.Value?>(schema: ["type": ["number", "string", "null"]]) { value in
        switch value {
        case .number(let n)?: return .number(n)
        case .string(let s)?: return .string(s)
        case nil: return .null
        }
    }

    static let check = ResponseShape<SyncCheckReport>(nil, [
        .member("redcapVersion", .string) { $0.redcapVersion },
        .member("projectId", projectValue) { $0.projectId },
        .member("projectTitle", projectValue) { $0.projectTitle },
        .member("fieldsChecked", .integer) { $0.fieldsChecked },
        .member("ok", .bool) { $0.ok },
        .member("repeatingCheck", .object(ResponseShape<SyncCheckReport.RepeatingCheck>(nil, [
            .member("scope", .string(S.oneOf(["instrument", "project"]))) { $0.perInstrument ? "instrument" : "project" },
            .member("note", .nullable(.string)) { $0.note },
        ]))) { $0.repeatingCheck },
        .member("problems", .array(.object(ResponseShape<SyncCheckReport.Problem>(nil, [
            .member("field", .string) { $0.field },
            .member("form", .string) { $0.form },
            .member("problem", .string) { $0.problem },
        ])))) { $0.problems },
    ])

    static let reconcile = ResponseShape<ReconcileReport>(nil, [
        .member("localRows", .integer) { $0.localRows },
        .member("remoteRows", .integer) { $0.remoteRows },
        .member("missingInREDCap", .integer) { $0.missingInREDCap },
        .member("differingFields", .integer) { $0.differingFields },
        .member("onlyInREDCap", .integer) { $0.onlyInREDCap },
        .member("inSync", .bool) { $0.inSync },
        .member("differences", .array(.object(ResponseShape<ReconcileReport.Difference>(nil, [
            .member("record", .string) { $0.record },
            .member("instrument", .string) { $0.instrument },
            .member("instance", .integer) { $0.instance },
            .member("field", .string) { $0.field },
            .member("local", .string) { $0.local },
            .member("remote", .string) { $0.remote },
            .member("queued", .bool) { $0.queued },
        ])))) { $0.differences },
    ])
}
