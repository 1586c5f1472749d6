import Foundation

extension ServerConfiguration {
    /// `backup`: scheduled, verified, pruned copies of the database (docs/operations.md §6).
    public struct Backup: Sendable, Equatable {
        /// Where every backup goes, scheduled or on demand; never inside the data directory.
        public var directory: URL
        /// Minutes between scheduled backups (1–10080).
        public var everyMinutes: Int = 60
        /// The newest backup of each of the last `keepHourly` clock hours is kept…
        public var keepHourly: Int = 48
        /// …and of each of the last `keepDaily` UTC days.
        public var keepDaily: Int = 30

        public init(directory: URL) {
            self.directory = directory
        }

        public static let everyMinutesRange = 1...10_080
        public static let keepRange = 1...100_000
    }

    /// `log`.
    public struct Log: Sendable {
        /// The lowest level written: `debug`, `info` (the default), `notice` or `warning`; errors always are.
        public var level: Logger.Level = .info
    }

    /// Where backups go: `backup.directory`, else `DATA_DIR/backups` (on-demand backups only).
    public var backupDirectory: URL {
        backup?.directory ?? dataDirectory.appendingPathComponent("backups")
    }

    /// What is wrong with the configuration beyond what each key says alone, naming the key, or
    /// nil: checked after `--data-dir` is applied, by `--check-config` and by a start.
    public var crossKeyProblem: String? {
        let file = configFile?.path ?? "hyponatrack.json"
        if let backup, AuditKeySource.isInside(backup.directory.path, dataDirectory) || sameDirectory(backup.directory, dataDirectory) {
            return "\(file): backup.directory: \(backup.directory.path) is inside the data directory \(dataDirectory.path); a backup "
                + "must survive the loss of the data directory (put it on another disk, e.g. /srv/backup/hyponatrack)"
        }
        return nil
    }

    private func sameDirectory(_ a: URL, _ b: URL) -> Bool {
        a.resolvingSymlinksInPath().standardizedFileURL.path == b.resolvingSymlinksInPath().standardizedFileURL.path
    }
}

extension Logger.Level {
    /// The levels `log.level` may name (errors are always written).
    public static let configurable: [Logger.Level] = [.debug, .info, .notice, .warning]

    /// `debug`, `info`, `notice`, `warning`, `error`.
    public init?(name: String) {
        guard let level = ([.debug, .info, .notice, .warning, .error] as [Logger.Level]).first(where: { $0.name == name }) else { return nil }
        self = level
    }
}
