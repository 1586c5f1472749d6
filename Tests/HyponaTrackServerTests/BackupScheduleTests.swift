import Foundation
import HTJSON
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Scheduled backups (docs/product.md, settled T) on a clock the test sets, in process: the
/// first runs `everyMinutes` after the start, an on-demand backup moves the schedule, retention
/// keeps the newest of each recent hour and day, a failure is audited and queued for the hooks
/// that subscribe to `backup.failed`, and `/healthz` and `/metrics` show the last good one.
@Suite struct BackupScheduleTests {
    /// A whole hour, so hour buckets are easy to reason about.
    static let t0 = (Date().timeIntervalSince1970 / 3600).rounded(.down) * 3600

    static let opsHook = HookConfiguration(name: "ops", kind: .command(path: "/bin/true", args: [], timeoutSeconds: 5),
                                           events: [.backupFailed])

    static func application(_ clock: SimulationClock, every: Int = 60, keepHourly: Int = 48, keepDaily: Int = 30)
        throws -> (InProcessApplication, URL) {
        let backups = FileManager.default.temporaryDirectory.appendingPathComponent("ht-backups-\(UUID().uuidString)")
        let h = try InProcessApplication(clock: clock) { config in
            var backup = ServerConfiguration.Backup(directory: backups)
            backup.everyMinutes = every
            backup.keepHourly = keepHourly
            backup.keepDaily = keepDaily
            config.backup = backup
            config.hooks = [Self.opsHook]
        }
        return (h, backups)
    }

    static func member(_ value: JSONValue, _ key: String) -> JSONValue? {
        if case .object(let o) = value { return o[key] }
        return nil
    }

    static func names(_ directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test func theFirstScheduledBackupRunsEveryMinutesAfterTheStartAndTheNextAfterThat() throws {
        let clock = SimulationClock(Self.t0)
        let (h, directory) = try Self.application(clock)
        let scheduler = try #require(h.app.domain.backups)
        #expect(!scheduler.tick(now: Self.t0 + 59 * 60))
        #expect(h.app.service.backup.list().isEmpty)
        clock.set(Self.t0 + 3600)
        #expect(scheduler.tick(now: clock.now()))
        let first = try #require(h.app.service.backup.list().first)
        #expect(first.createdAt == epochMilliseconds(Self.t0 + 3600))
        #expect(first.manifest?.schemaVersion == Schema.migrator().registeredNames.last)
        #expect(Self.names(directory) == [first.name.replacingOccurrences(of: ".sqlite", with: ".json"), first.name],
                "the backup and its manifest, nothing hidden left behind")
        clock.set(Self.t0 + 5400)
        #expect(!scheduler.tick(now: clock.now()))
        clock.set(Self.t0 + 7200)
        #expect(scheduler.tick(now: clock.now()))
        #expect(h.app.service.backup.list().map(\.createdAt) == [Self.t0 + 7200, Self.t0 + 3600].map(epochMilliseconds))
    }

    @Test func anOnDemandBackupCountsAndMovesTheSchedule() throws {
        let clock = SimulationClock(Self.t0)
        let (h, _) = try Self.application(clock)
        let scheduler = try #require(h.app.domain.backups)
        clock.set(Self.t0 + 1800)
        #expect(h.send(.post, "/v1/backup").status == 201)
        clock.set(Self.t0 + 3600)
        #expect(!scheduler.tick(now: clock.now()), "due an hour after the on-demand backup, not after the start")
        clock.set(Self.t0 + 5400)
        #expect(scheduler.tick(now: clock.now()))
        #expect(h.app.service.backup.list().count == 2)
    }

    @Test func retentionKeepsTheNewestOfEachRecentHourAndDayAndAlwaysTheNewest() {
        let hour: Int64 = 3_600_000, day = 24 * hour, now = 100 * day + 10 * hour + 30 * 60_000
        let backups: [Int64] = [
            now - 10 * 60_000, now - 20 * 60_000,          // this hour: the newer one stays
            now - hour, now - hour - 60_000,               // the hour before: the newer one stays
            now - 3 * hour,                                // three hours ago: only a day keeps it
            now - day, now - day - hour,                   // yesterday: the newest of that day stays
            now - 5 * day,                                 // five days ago: too old for keepDaily 3
        ]
        let kept = BackupRetention.keep(backups, now: now, keepHourly: 2, keepDaily: 3)
        #expect(kept == [now - 10 * 60_000, now - hour, now - day])
        // Today's newest is this hour's; 3 h ago is today's too, but not the newest of today.
        #expect(BackupRetention.keep([now - 5 * day], now: now, keepHourly: 1, keepDaily: 1) == [now - 5 * day],
                "the newest backup is never deleted, however old")
    }

    @Test func scheduledBackupsArePrunedByRetention() throws {
        let clock = SimulationClock(Self.t0)
        let (h, _) = try Self.application(clock, every: 30, keepHourly: 2, keepDaily: 1)
        let scheduler = try #require(h.app.domain.backups)
        for step in 1...8 {   // every 30 minutes for four hours
            clock.set(Self.t0 + Double(step) * 1800)
            #expect(scheduler.tick(now: clock.now()))
        }
        // Now t0+4h: the newest (t0+4h, also this hour's), the newest of t0+3h…4h (t0+3.5h),
        // and today's newest (the same as the newest) — unless t0 is the last hours of a UTC day.
        let kept = h.app.service.backup.list().map(\.createdAt)
        let expected = BackupRetention.keep((1...8).map { epochMilliseconds(Self.t0 + Double($0) * 1800) },
                                            now: epochMilliseconds(Self.t0 + 4 * 3600), keepHourly: 2, keepDaily: 1)
        #expect(Set(kept) == expected)
        #expect(kept.count == 2 || kept.count == 3, "\(kept)")
        #expect(kept.first == epochMilliseconds(Self.t0 + 4 * 3600))
    }

    @Test func aBackupThatWouldLeaveLessThanATenthFreeIsNotStartedAndTheHooksAreTold() throws {
        let clock = SimulationClock(Self.t0)
        let (h, directory) = try Self.application(clock)
        let service = h.app.service
        // The same service over a filesystem of 1 GiB with 100 MiB free: any copy would leave < 10 %.
        let full = BackupService(transactions: service.context.transactions, clock: clock, configuration: service.configuration,
                                 space: { _ in FileSystemSpace(totalBytes: 1 << 30, availableBytes: 100 << 20) })
        #expect(throws: DomainError.self) { try full.make(.scheduled, actor: "system") }
        #expect(BackupDirectory.list(directory).isEmpty)
        #expect(full.status.snapshot.failed == 1 && full.status.snapshot.lastGoodAt == nil)
        let (events, audit) = try service.database.read { db in
            (try db.query("SELECT hook, type, body FROM hook_outbox").map { (try $0.string(0), try $0.string(1), try $0.string(2)) },
             try db.query("SELECT details FROM audit_log WHERE action = 'backup.failed'").map { try $0.string(0) })
        }
        #expect(events.count == 1)
        #expect(events.first?.0 == "ops" && events.first?.1 == "backup.failed")
        #expect(events.first?.2.contains("less than 10 %") == true, "\(events)")
        #expect(audit.count == 1 && audit.first?.contains("\"trigger\":\"scheduled\"") == true, "\(audit)")
        // With room, the same service writes it.
        let roomy = BackupService(transactions: service.context.transactions, clock: clock, configuration: service.configuration,
                                  space: { _ in FileSystemSpace(totalBytes: 1 << 30, availableBytes: 900 << 20) })
        #expect(try roomy.make(.manual, actor: "staff:admin").bytes > 0)
    }

    @Test func healthAndMetricsShowTheLastGoodBackup() throws {
        let clock = SimulationClock(Self.t0)
        let (h, _) = try Self.application(clock)
        guard case .object(let before)? = Self.member(h.send(.get, "/healthz").json, "backup") else { throw TestError("no backup in /healthz") }
        #expect(before["configured"] == .bool(true) && before["lastGoodAt"] == .null && before["ageSeconds"] == .null)
        #expect(h.send(.post, "/v1/backup").status == 201)
        clock.set(Self.t0 + 90)
        guard case .object(let after)? = Self.member(h.send(.get, "/healthz").json, "backup") else { throw TestError("no backup in /healthz") }
        #expect(after["lastGoodAt"] == .string(iso8601UTC(milliseconds: epochMilliseconds(Self.t0))))
        #expect(after["ageSeconds"] == .number(90))
        let metrics = h.client.send(.get, "/metrics").bodyText ?? ""
        #expect(metrics.contains("hyponatrack_backup_age_seconds 90\n"), "\(metrics)")
        #expect(metrics.contains("hyponatrack_backups_total{outcome=\"ok\"} 1\n"))
        #expect(metrics.contains("hyponatrack_backup_last_good_timestamp_seconds \(Int(Self.t0))\n"))
        #expect(metrics.contains("hyponatrack_hook_events{hook=\"ops\",state=\"dead\"} 0\n"))
        #expect(metrics.contains("# TYPE hyponatrack_scheduler_last_tick_age_seconds gauge\n"))
    }
}
