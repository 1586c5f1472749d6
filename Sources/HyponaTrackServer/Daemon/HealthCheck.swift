import HyponaTrackKit
import SQLite

/// What `/healthz` reports: whether the database takes a durable write (tried at most once a
/// second, ``HeartbeatProbe``; the rest is read afresh for every probe), how the REDCap sync
/// and the scheduler stand, which rules are in force, and whether anyone hears an alert.
struct Health: Sendable {
    var writable: Bool
    /// Nil when the sync is off (no `redcap` block) or its status could not be read.
    var sync: OutboxRepository.Status?
    var syncEnabled: Bool
    var schedulerLastTickAt: Int64?
    var rulesVersion: String
    /// False when no escalation tier is configured: alerts are stored but reach nobody.
    var escalationConfigured: Bool
    var version: String
    var checkedAt: Int64
}

/// Runs the health check against the live database.
final class HealthCheck: Sendable {
    let database: Database
    let rules: ActiveRules
    let clock: any ServerClock
    let syncEnabled: Bool
    let escalationConfigured: Bool
    /// The durable write behind `writable`, at most once a second (``HeartbeatProbe``).
    let heartbeat: HeartbeatProbe

    init(database: Database, rules: ActiveRules, clock: any ServerClock, syncEnabled: Bool, escalation: EscalationLadder) {
        self.database = database
        self.rules = rules
        self.clock = clock
        self.syncEnabled = syncEnabled
        escalationConfigured = escalation.isConfigured
        heartbeat = HeartbeatProbe { [database, clock] in
            (try? database.write { db in try HeartbeatRepository.beat(db, at: epochMilliseconds(clock.now())) }) != nil
        }
    }

    func check() -> Health {
        let ms = epochMilliseconds(clock.now())
        return Health(writable: heartbeat.writable(),
                      sync: syncEnabled ? try? database.read { try OutboxRepository.status($0, deadLimit: 0) } : nil,
                      syncEnabled: syncEnabled,
                      schedulerLastTickAt: (try? database.read { try SchedulerRepository.lastTick($0) }) ?? nil,
                      rulesVersion: rules.snapshot.rules.version, escalationConfigured: escalationConfigured,
                      version: HyponaTrackVersion.string, checkedAt: ms)
    }
}
