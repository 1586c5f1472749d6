/// Rows of operations: sync, exports, backups, the audit trail's own checkpoints and re-keying.
extension AuditDetails {
    /// `sync.retry`.
    struct SyncRetry: Encodable, Sendable {
        let dead: Bool
        let rows: Int
    }

    /// `sync.exportAll`.
    struct Rows: Encodable, Sendable {
        let rows: Int
    }

    /// `export.days`, `export.alerts`.
    struct CSVExport: Encodable, Sendable {
        var format = "csv"
        let studyId: String?
        let rows: Int
    }

    /// `export.report`.
    struct ReportExport: Encodable, Sendable {
        var format = "pdf"
        let studyId: String
        let language: String
        let pages: Int
    }

    /// `backup.create`.
    struct Backup: Encodable, Sendable {
        let path: String
        let bytes: Int
    }

    /// `hook.retry`: the hooks the event goes to again.
    struct HookRetry: Encodable, Sendable {
        let hooks: [String]
    }

    /// `hook.enable`.
    struct HookName: Encodable, Sendable {
        let hook: String
    }

    /// `backup.failed`: what started it and why it failed.
    struct BackupFailure: Encodable, Sendable {
        let trigger: String
        let reason: String
    }

    /// `audit.rekey`: the rows of the old chain and its head as `seq:hash`.
    struct Rekey: Encodable, Sendable {
        let rows: Int
        let oldHead: String
    }

    /// `audit.checkpoint`: why, and the hooks the checkpoint event went to.
    struct Checkpoint: Encodable, Sendable {
        let reason: String
        let hooks: [String]
    }
}
