import HTJSON

/// `POST /v1/sync/retry`: failed rows become due now; with `dead`, the dead letters too.
struct RetrySync: Sendable {
    var dead: Bool
    var actor: String
}

struct RetryResult: Sendable, Equatable {
    /// Rows made due.
    var rows: Int
    var dead: Bool
}

/// `POST /v1/sync/resume`: a halted sync carries on.
struct ResumeSync: Sendable {
    var actor: String
}

/// `POST /v1/sync/export-all`: every baseline, day and alert queued again.
struct ExportAll: Sendable {
    var actor: String
}

struct ExportAllResult: Sendable, Equatable {
    var queued: Int
}

/// The outbox, the halt state and the request budget, as read at `asOf` (ms since the epoch).
struct SyncStatus: Sendable {
    var url: String
    var outbox: OutboxRepository.Status
    var requestsLastMinute: Int
    var maxRequestsPerMinute: Int
    var asOf: Int64
}

/// The REDCap project compared with the fields the server writes.
struct SyncCheckReport: Sendable, Equatable {
    struct Problem: Sendable, Equatable {
        var field: String
        var form: String
        var problem: String
    }

    var redcapVersion: String
    /// As REDCap's project info has them (number or string), null when absent.
    var projectId: JSONValue
    var projectTitle: JSONValue
    var fieldsChecked: Int
    var problems: [Problem]
    var repeatingCheck: RepeatingCheck

    /// How the repeating instruments were checked: one by one (`repeatingFormsEvents`), or only
    /// through the project-wide flag when REDCap would not list them (`note` says why).
    struct RepeatingCheck: Sendable, Equatable {
        var perInstrument: Bool
        var note: String?
    }

    var ok: Bool { problems.isEmpty }
}

/// Our records as REDCap holds them, compared with what the server holds.
struct ReconcileReport: Sendable, Equatable {
    /// A row missing in REDCap (`field` "*") or one field that differs.
    struct Difference: Sendable, Equatable {
        var record: String
        var instrument: String
        /// 0 for the baseline.
        var instance: Int
        var field: String
        var local: String
        var remote: String
        /// Whether a row for the record, instrument and instance is still in the outbox.
        var queued: Bool
    }

    var localRows: Int
    var remoteRows: Int
    var missingInREDCap: Int
    var differingFields: Int
    var onlyInREDCap: Int
    /// The first differences (at most the limit asked for).
    var differences: [Difference]

    var inSync: Bool { missingInREDCap == 0 && differingFields == 0 && onlyInREDCap == 0 }
}
