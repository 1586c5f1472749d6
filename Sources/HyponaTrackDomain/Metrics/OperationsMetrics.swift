import Foundation

/// `/metrics` for what runs in the background: hook delivery (pending, failed, dead per hook),
/// the scheduler (last tick's age and duration, ticks by outcome) and backups (the last good
/// one's time and age, backups by outcome, the last one's duration). The hook figures and the
/// last tick are read from the database at each scrape (the outbox's state index: a few rows).
struct OperationsMetrics: Sendable {
    let database: Database
    let hooks: [HookConfiguration]
    let scheduler: SchedulerStatistics
    let backups: BackupStatus
    let clock: any ServerClock

    func families() -> [MetricFamily] {
        let now = clock.now()
        var result: [MetricFamily] = []
        var events = MetricFamily("hyponatrack_hook_events", .gauge,
                                  "Hook events by hook and state: pending (not yet tried), failed (tried, waiting for a retry), dead (given up).")
        if let backlog = try? database.read({ try HookOutboxRepository.backlog($0) }) {
            for hook in hooks.map(\.name).sorted() {
                let counts = backlog[hook] ?? (0, 0, 0)
                for (state, value) in [("pending", counts.pending), ("failed", counts.failed), ("dead", counts.dead)] {
                    events.add(Double(value), labels: [("hook", hook), ("state", state)])
                }
            }
        }
        result.append(events)
        var age = MetricFamily("hyponatrack_scheduler_last_tick_age_seconds", .gauge, "Seconds since the scheduler's last pass finished.")
        if let last = (try? database.read({ try SchedulerRepository.lastTick($0) })) ?? nil {
            age.add(max(0, now - Double(last) / 1000))
        }
        let ticks = scheduler.snapshot
        var duration = MetricFamily("hyponatrack_scheduler_last_tick_duration_seconds", .gauge, "How long the scheduler's last pass took.")
        if let seconds = ticks.lastDurationSeconds { duration.add(seconds) }
        var tickCount = MetricFamily("hyponatrack_scheduler_ticks_total", .counter, "Scheduler passes by outcome.")
        tickCount.add(Double(ticks.ok), labels: [("outcome", "ok")])
        tickCount.add(Double(ticks.failed), labels: [("outcome", "failed")])
        result += [age, duration, tickCount]
        let b = backups.snapshot
        var lastGood = MetricFamily("hyponatrack_backup_last_good_timestamp_seconds", .gauge,
                                    "When the last good backup was taken (Unix seconds); absent before the first.")
        var backupAge = MetricFamily("hyponatrack_backup_age_seconds", .gauge, "Seconds since the last good backup was taken.")
        if let at = b.lastGoodAt {
            lastGood.add(Double(at) / 1000)
            backupAge.add(max(0, now - Double(at) / 1000))
        }
        var count = MetricFamily("hyponatrack_backups_total", .counter, "Backups since the start, scheduled and on demand, by outcome.")
        count.add(Double(b.succeeded), labels: [("outcome", "ok")])
        count.add(Double(b.failed), labels: [("outcome", "failed")])
        var backupDuration = MetricFamily("hyponatrack_backup_duration_seconds", .gauge, "How long the last backup took, its checks included.")
        if let seconds = b.lastDurationSeconds { backupDuration.add(seconds) }
        return result + [lastGood, backupAge, count, backupDuration]
    }
}
