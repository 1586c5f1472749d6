import HyponaTrackKit
import SQLite

/// What `/healthz` reports: whether the database takes a durable write (tried at most once a
/// second, ``HeartbeatProbe``; the rest is read afresh for every probe), how the REDCap sync
/// and the scheduler stand, which rules are in force, and whether anyone hears an alert.
public struct Health: Sendable {
    public var writable: Bool
    /// Nil when the sync is off (no `redcap` block) or its status could not be read.
    public var sync: SyncOutboxStatus?
    public var syncEnabled: Bool
    public var schedulerLastTickAt: Int64?
    public var rulesVersion: String
    /// False when no escalation tier is configured: alerts are stored but reach nobody.
    public var escalationConfigured: Bool
    public var version: String
    public var checkedAt: Int64
    /// Whether scheduled backups are configured (`backup`).
    public var backupConfigured = false
    /// The last good backup (ms), scheduled or on demand; nil before the first.
    public var backupLastGoodAt: Int64?
    /// Seconds since then (nil before the first).
    public var backupAgeSeconds: Double? {
        backupLastGoodAt.map { max(0, Double(checkedAt - $0) / 1000) }
    }

    public init(writable: Bool, sync: SyncOutboxStatus? = nil, syncEnabled: Bool, schedulerLastTickAt: Int64? = nil, rulesVersion: String, escalationConfigured: Bool, version: String, checkedAt: Int64) {
        self.writable = writable
        self.sync = sync
        self.syncEnabled = syncEnabled
        self.schedulerLastTickAt = schedulerLastTickAt
        self.rulesVersion = rulesVersion
        self.escalationConfigured = escalationConfigured
        self.version = version
        self.checkedAt = checkedAt
    }
}

/// Runs the health check against the live database.
public final class HealthCheck: Sendable {
    public let database: Database
    public let rules: ActiveRules
    public let clock: any ServerClock
    public let syncEnabled: Bool
    public let escalationConfigured: Bool
    /// The durable write behind `writable`, at most once a second (``HeartbeatProbe``).
    let heartbeat: HeartbeatProbe
    let backups: BackupStatus?
    let backupConfigured: Bool

    public init(database: Database, rules: ActiveRules, clock: any ServerClock, syncEnabled: Bool, escalation: EscalationLadder,
                backups: BackupStatus? = nil, backupConfigured: Bool = false) {
        self.backups = backups
        self.backupConfigured = backupConfigured
        self.database = database
        self.rules = rules
        self.clock = clock
        self.syncEnabled = syncEnabled
        escalationConfigured = escalation.isConfigured
        heartbeat = HeartbeatProbe { [database, clock] in
            (try? database.write { db in try HeartbeatRepository.beat(db, at: epochMilliseconds(clock.now())) }) != nil
        }
    }

    public func check() -> Health {
        let ms = epochMilliseconds(clock.now())
        var health = Health(writable: heartbeat.writable(),
                      sync: syncEnabled ? try? database.read { try OutboxRepository.status($0, deadLimit: 0) } : nil,
                      syncEnabled: syncEnabled,
                      schedulerLastTickAt: (try? database.read { try SchedulerRepository.lastTick($0) }) ?? nil,
                      rulesVersion: rules.snapshot.rules.version, escalationConfigured: escalationConfigured,
                      version: HyponaTrackVersion.string, checkedAt: ms)
        health.backupConfigured = backupConfigured
        health.backupLastGoodAt = backups?.snapshot.lastGoodAt
        return health
    }
}
