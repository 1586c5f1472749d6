import HTJSON

/// `POST /v1/sync/retry`: failed rows become due now; with `dead`, the dead letters too.
public struct RetrySync: Sendable {
    public var dead: Bool
    public var actor: String

    public init(dead: Bool, actor: String) {
        self.dead = dead
        self.actor = actor
    }
}

public struct RetryResult: Sendable, Equatable {
    /// Rows made due.
    public var rows: Int
    public var dead: Bool

    public init(rows: Int, dead: Bool) {
        self.rows = rows
        self.dead = dead
    }
}

/// `POST /v1/sync/resume`: a halted sync carries on.
public struct ResumeSync: Sendable {
    public var actor: String

    public init(actor: String) {
        self.actor = actor
    }
}

/// `POST /v1/sync/export-all`: every baseline, day and alert queued again.
public struct ExportAll: Sendable {
    public var actor: String

    public init(actor: String) {
        self.actor = actor
    }
}

public struct ExportAllResult: Sendable, Equatable {
    public var queued: Int

    public init(queued: Int) {
        self.queued = queued
    }
}

/// The outbox, the halt state and the request budget, as read at `asOf` (ms since the epoch).
public struct SyncStatus: Sendable {
    public var url: String
    public var outbox: SyncOutboxStatus
    public var requestsLastMinute: Int
    public var maxRequestsPerMinute: Int
    public var asOf: Int64

    public init(url: String, outbox: SyncOutboxStatus, requestsLastMinute: Int, maxRequestsPerMinute: Int, asOf: Int64) {
        self.url = url
        self.outbox = outbox
        self.requestsLastMinute = requestsLastMinute
        self.maxRequestsPerMinute = maxRequestsPerMinute
        self.asOf = asOf
    }
}

/// The REDCap project compared with the fields the server writes.
public struct SyncCheckReport: Sendable, Equatable {
    public struct Problem: Sendable, Equatable {
        public var field: String
        public var form: String
        public var problem: String
    }

    public var redcapVersion: String
    /// As REDCap's project info has them (number or string), nil when absent.
    public var projectId: Value?
    public var projectTitle: Value?

    /// A number or a string, as REDCap wrote it.
    public enum Value: Sendable, Equatable {
        case number(Double)
        case string(String)

        init?(_ scalar: REDCapScalar) {
            switch scalar {
            case .number(let n): self = .number(n)
            case .string(let s): self = .string(s)
            case .other: return nil
            }
        }
    }
    public var fieldsChecked: Int
    public var problems: [Problem]
    public var repeatingCheck: RepeatingCheck

    /// How the repeating instruments were checked: one by one (`repeatingFormsEvents`), or only
    /// through the project-wide flag when REDCap would not list them (`note` says why).
    public struct RepeatingCheck: Sendable, Equatable {
        public var perInstrument: Bool
        public var note: String?
    }

    public var ok: Bool { problems.isEmpty }

    public init(redcapVersion: String, projectId: Value?, projectTitle: Value?, fieldsChecked: Int, problems: [Problem], repeatingCheck: RepeatingCheck) {
        self.redcapVersion = redcapVersion
        self.projectId = projectId
        self.projectTitle = projectTitle
        self.fieldsChecked = fieldsChecked
        self.problems = problems
        self.repeatingCheck = repeatingCheck
    }
}

/// Our records as REDCap holds them, compared with what the server holds.
public struct ReconcileReport: Sendable, Equatable {
    /// A row missing in REDCap (`field` "*") or one field that differs.
    public struct Difference: Sendable, Equatable {
        public var record: String
        public var instrument: String
        /// 0 for the baseline.
        public var instance: Int
        public var field: String
        public var local: String
        public var remote: String
        /// Whether a row for the record, instrument and instance is still in the outbox.
        public var queued: Bool
    }

    public var localRows: Int
    public var remoteRows: Int
    public var missingInREDCap: Int
    public var differingFields: Int
    public var onlyInREDCap: Int
    /// The first differences (at most the limit asked for).
    public var differences: [Difference]

    public var inSync: Bool { missingInREDCap == 0 && differingFields == 0 && onlyInREDCap == 0 }

    public init(localRows: Int, remoteRows: Int, missingInREDCap: Int, differingFields: Int, onlyInREDCap: Int, differences: [Difference]) {
        self.localRows = localRows
        self.remoteRows = remoteRows
        self.missingInREDCap = missingInREDCap
        self.differingFields = differingFields
        self.onlyInREDCap = onlyInREDCap
        self.differences = differences
    }
}
