import Foundation
import HyponaTrackCore
import SQLite
import Synchronization

/// The daemon's clockwork (docs/clinical-rules.md §7–§8): fires due escalation tiers,
/// emits `reminder.due` at each planned reminder's time, and decides the missing-data alerts
/// (docs/clinical-rules.md §8) at their deadlines. Every decision is recorded (`scheduler_marks`,
/// `escalation_steps.fired_at`) in the transaction that acts on it, so a restart neither misses
/// nor repeats one; after downtime the missed deadlines are decided once. Time is injected:
/// `tick(now:)` is what tests drive; as a background service it ticks every `interval` seconds
/// on the given clock.
final class Scheduler: BackgroundService {
    /// Reminders more than this late (downtime) are recorded as skipped, not sent.
    static let reminderGraceSeconds: Double = 30 * 60
    /// How far back missed deadlines are caught up after downtime.
    static let catchUpDays = 3

    let database: Database
    let rules: ActiveRules
    let alerting: Alerting
    let hooks: [HookConfiguration]
    let logger: Logger
    let onQueued: @Sendable () -> Void
    /// Push reminders (nil: no push platform configured).
    let push: PushQueue?
    /// Called when pushes were queued (wakes the push delivery).
    let onPushQueued: @Sendable () -> Void
    /// The daily `audit.checkpoint`; nil: none (tests that count rows).
    let checkpoints: AuditCheckpoints?
    /// Seconds between ticks when running as a service.
    let interval: Double
    let clock: any ServerClock
    /// Every patient decoded once and re-read only when changed (a tick every 15 s over every patient).
    let patients: DecodedPatients
    let name = "scheduler"
    /// A stop waits for the patients already handed to the writer (at most `patientsInFlight`).
    let stopDeadline: Double = 15
    private let signal = StopSignal()

    init(database: Database, rules: ActiveRules, alerting: Alerting, hooks: [HookConfiguration], logger: Logger,
         interval: Double = 15, clock: any ServerClock = SystemClock(), checkpoints: AuditCheckpoints? = nil,
         push: PushQueue? = nil, onPushQueued: @escaping @Sendable () -> Void = {},
         onQueued: @escaping @Sendable () -> Void = {}, patients: DecodedPatients = DecodedPatients()) {
        self.push = push
        self.patients = patients
        self.onPushQueued = onPushQueued
        self.database = database
        self.rules = rules
        self.alerting = alerting
        self.hooks = hooks
        self.logger = logger
        self.interval = interval
        self.clock = clock
        self.onQueued = onQueued
        self.checkpoints = checkpoints
    }

    /// The last tick's duration and the counts, for `/metrics`.
    let statistics = SchedulerStatistics()

    /// Ticks at once, then every `interval` seconds, until asked to stop.
    func run() {
        repeat {
            let started = ContinuousClock.now
            do {
                try tick(now: clock.now())
                let seconds = Self.seconds(started.duration(to: .now))
                statistics.ticked(ok: true, seconds: seconds)
                logger.debug("scheduler tick", ["duration_ms": String(format: "%.1f", seconds * 1000)])
            } catch {
                statistics.ticked(ok: false, seconds: Self.seconds(started.duration(to: .now)))
                logger.error("scheduler tick failed", ["error": "\(error)"])
            }
        } while !signal.wait(seconds: interval)
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    func requestStop() { signal.requestStop() }

    /// One pass at `now` (epoch seconds).
    func tick(now: Double) throws {
        let ms = epochMilliseconds(now)
        let snapshot = rules.snapshot
        let fired = try database.write { db in try alerting.fireDue(db, now: ms) }
        var queued = fired > 0
        if checkpointIfDue(now: now) { queued = true }
        let patients = try database.read { db in try self.patients.all(db) }
        let lastPOD = snapshot.rules.reminders.extendedToPOD + Self.catchUpDays + 1
        let due = patients.filter { patient in
            // Long after the longest possible window there is nothing left to decide.
            guard patient.activatedAt != nil && !patient.isWithdrawn else { return false }
            guard let zone = ZoneCache.rules(patient.profile.timeZone) else { return true }
            return patient.profile.pod(at: zone.localDate(atEpochSeconds: now)) <= lastPOD
        }
        let outcome = try tick(due, now: now, snapshot: snapshot)
        try database.write { db in try SchedulerRepository.recordTick(db, at: ms) }
        if queued || outcome.queued { onQueued() }
    }

    /// What one patient's transaction queued: hook events (`onQueued`), pushes (`onPushQueued`).
    struct PatientTick: Sendable {
        var queued = false
        var pushed = false

        mutating func add(_ other: PatientTick) {
            queued = queued || other.queued
            pushed = pushed || other.pushed
        }
    }

    /// Patients the scheduler keeps in the writer's queue at once. Each patient is its own job
    /// (its own savepoint: one that fails is rolled back alone), and the group-commit writer
    /// commits the queued ones together — a tick waiting for each patient's COMMIT paid one
    /// fsync per patient, and a reminder minute for 10,000 patients took most of a minute. Few
    /// enough that a day submission queued meanwhile waits behind a handful, not the whole list.
    static let patientsInFlight = 32

    /// Every listed patient's reminders and deadlines; the push delivery woken after each COMMIT
    /// that queued pushes.
    /// A patient whose transaction fails does not hold up the others: the first such error is
    /// thrown after all have been tried (the marks make the next tick retry exactly what failed).
    /// A stop requested meanwhile leaves the rest to the next start.
    private func tick(_ listed: [PatientRecord], now: Double, snapshot: ActiveRules.Snapshot) throws -> PatientTick {
        let slots = DispatchSemaphore(value: Self.patientsInFlight)
        let all = DispatchGroup()
        let results = Mutex<(outcome: PatientTick, error: (any Error)?)>((PatientTick(), nil))
        for patient in listed {
            if signal.isStopRequested { break }
            slots.wait()
            all.enter()
            database.submit({ db in try self.tick(db, patient, now: now, snapshot: snapshot) }) { result in
                switch result {
                case .success(let one):
                    // The pushes start as soon as the first patients' deliveries are committed.
                    if one.pushed { self.onPushQueued() }
                    results.withLock { $0.outcome.add(one) }
                case .failure(let error):
                    results.withLock { $0.error = $0.error ?? error }
                }
                slots.signal()
                all.leave()
            }
        }
        all.wait()
        let (outcome, error) = results.withLock { $0 }
        if let error { throw error }
        return outcome
    }

    /// The day's `audit.checkpoint`, once; returns whether its event was queued. A failure is
    /// logged and retried at the next tick, without holding up the patients' deadlines.
    private func checkpointIfDue(now: Double) -> Bool {
        guard let checkpoints else { return false }
        do {
            guard let checkpoint = try database.write({ db in try checkpoints.dailyIfDue(db, now: now) }) else { return false }
            logger.notice("audit checkpoint", ["checkpoint": checkpoint.description, "reason": AuditCheckpoints.Reason.daily.rawValue,
                                               "hooks": String(checkpoints.subscribers.count)])
            return !checkpoints.subscribers.isEmpty
        } catch {
            logger.error("audit checkpoint failed", ["error": "\(error)"])
            return false
        }
    }

    /// One patient's reminders and missing-data deadlines; returns whether events were queued.
    /// (Internal for the test that hands it a record read before a withdrawal.)
    func tick(_ listed: PatientRecord, now: Double, snapshot: ActiveRules.Snapshot) throws -> Bool {
        let outcome = try database.write { db in try tick(db, listed, now: now, snapshot: snapshot) }
        if outcome.pushed { onPushQueued() }
        return outcome.queued
    }

    /// One patient's transaction (a job on the writer).
    private func tick(_ db: Connection, _ listed: PatientRecord, now: Double, snapshot: ActiveRules.Snapshot) throws -> PatientTick {
        let ms = epochMilliseconds(now)
        let detector = snapshot.missingData
        // Checked again under the write lock: the list was read before this transaction, and a
        // withdrawal or a profile change (time zone, surgery date) may have come in between.
        // Unchanged (the same revision) it is the listed record; decoding every patient's
        // profile again in the writer was most of a tick's cost.
        let current = try PatientRepository.revision(db, id: listed.id) == listed.revision ? listed
            : try PatientRepository.load(db, id: listed.id)
        guard let patient = current, !patient.isWithdrawn,
              let activatedMs = patient.activatedAt, let zone = ZoneCache.rules(patient.profile.timeZone) else { return PatientTick() }
        let today = zone.localDate(atEpochSeconds: now)
        let activatedAt = zone.timestamp(atEpochSeconds: Double(activatedMs) / 1000)
        var outcome = PatientTick()
        let window = try MonitoringWindow.stored(db, patient, rules: snapshot.rules.reminders)
        let first = max(today.adding(days: -Self.catchUpDays), activatedAt.localDate, window.first)
        guard first <= today else { return PatientTick() }
        // Far enough back for no_data_2d of `first` and for the adherence days before today.
        let from = min(first.adding(days: -snapshot.rules.reminders.noDataDays),
                       today.adding(days: -snapshot.rules.reminders.adherenceDays))
        let days = try DayRepository.load(db, patientId: patient.id, from: from, to: today)
        // A day only staff wrote (a correction, a confirmed import of wearable data) is no
        // sign of the patient: both missing-data alerts read the days the patient submitted.
        let submitted = try DayRepository.patientSubmittedDates(db, patientId: patient.id, from: from, to: today)
        let patientDays = days.filter { submitted.contains($0.date) }
        var date = first
        while date <= today {
            // missing_checkin at the evening deadline
            if detector.missingCheckinDue(on: date, zone: zone).epochSeconds <= now,
               try !marked(db, patient.id, date, "missing_checkin") {
                let finding = detector.missingCheckin(profile: patient.profile, day: patientDays.first { $0.date == date },
                                                      date: date, window: window, activatedAt: activatedAt, zone: zone)
                if let f = finding { try raise(db, patient, f, snapshot: snapshot, at: ms); outcome.queued = true }
                try mark(db, patient.id, date, "missing_checkin", finding == nil ? "not_needed" : "raised", ms)
            }
            // no_data_2d at 24:00
            if detector.noDataDue(on: date, zone: zone).epochSeconds <= now, try !marked(db, patient.id, date, "no_data_2d") {
                let finding = detector.noData(profile: patient.profile, days: patientDays, date: date, window: window, activatedAt: activatedAt)
                if let f = finding { try raise(db, patient, f, snapshot: snapshot, at: ms); outcome.queued = true }
                try mark(db, patient.id, date, "no_data_2d", finding == nil ? "not_needed" : "raised", ms)
            }
            date = date.adding(days: 1)
        }
        if window.contains(today), let push,
           try push.nudgeIfDue(db, patientId: patient.id, activatedAt: activatedMs, today: today, zone: zone,
                               rules: snapshot.rules.reminders, now: now) {
            outcome.pushed = true
        }
        if window.contains(today) {
            outcome.add(try emitReminders(db, patient, today: today, days: days, window: window, zone: zone,
                                          activation: activatedAt.localDate, now: now, snapshot: snapshot))
        }
        return outcome
    }

    private func raise(_ db: Connection, _ patient: PatientRecord, _ f: MissingDataDetector.Finding,
                       snapshot: ActiveRules.Snapshot, at ms: Int64) throws {
        let reasons = [StoredReason(code: f.kind.rawValue, level: f.level, value: nil, threshold: nil)]
        try alerting.raise(db, patient, date: f.date, kind: AlertKind(f.kind), level: f.level, reasons: reasons, pod: f.pod, at: ms)
    }

    /// `reminder.due` for each of today's planned reminders whose time has come: once, listing
    /// the tasks still open then; none when all are done; skipped when more than the grace late.
    private func emitReminders(_ db: Connection, _ patient: PatientRecord, today: LocalDate, days: [DailyEntry],
                               window: MonitoringWindow, zone: ZoneRules, activation: LocalDate, now: Double,
                               snapshot: ActiveRules.Snapshot) throws -> PatientTick {
        let subscribers = HookOutbox.subscribers(hooks, type: .reminderDue)
        let day = days.first { $0.date == today }
        let tasks = CarePlan.tasks(for: patient.profile, on: day, rules: snapshot.rules.reminders)
        let adherence = CarePlan.adherence(profile: patient.profile, days: days, today: today, activationDate: activation,
                                           window: window, rules: snapshot.rules.reminders)
        let plan = snapshot.planner.plan(date: today, pod: patient.profile.pod(at: today), adherence: adherence, tasks: tasks, zone: zone)
        var outcome = PatientTick()
        let ms = epochMilliseconds(now)
        for reminder in plan.reminders where reminder.at.epochSeconds <= now {
            // A task reminder is one per task: two tasks configured at the same time are two reminders.
            let key = "reminder@\(reminder.localTime):\(reminder.kind.rawValue)"
                + (reminder.kind == .task ? ":" + reminder.tasks.map(\.rawValue).joined(separator: ",") : "")
            if let push, try push.enqueue(db, patientId: patient.id, PushReminder(reminder, date: today, key: key,
                                                                                  rules: snapshot.rules.reminders, zone: zone),
                                          now: ms) == .queued {
                outcome.pushed = true
            }
            guard try !marked(db, patient.id, today, key) else { continue }
            if now - reminder.at.epochSeconds > Self.reminderGraceSeconds || subscribers.isEmpty {
                try mark(db, patient.id, today, key, subscribers.isEmpty ? "no_subscriber" : "skipped", ms)
                continue
            }
            // Only the hooks that hear the patient's site (`hooks[].sites`).
            let site = try SiteRepository.patientSiteCode(db, patientId: patient.id) ?? ""
            let heard = hooks.filter { subscribers.contains($0.name) && $0.hears(site: site) }.map(\.name)
            guard !heard.isEmpty else {
                try mark(db, patient.id, today, key, "no_subscriber", ms)
                continue
            }
            let data = HookEventData.ReminderDue(studyId: patient.studyId, site: site, date: today.description,
                                                 pod: patient.profile.pod(at: today), kind: reminder.kind.rawValue,
                                                 at: reminder.at.description, intensity: plan.intensity.rawValue,
                                                 tasks: reminder.tasks.map(\.rawValue))
            try HookOutbox.enqueue(db, type: .reminderDue, data: data, hooks: heard, at: ms)
            try mark(db, patient.id, today, key, "emitted", ms)
            outcome.queued = true
        }
        // Planned earlier but now without open tasks: never emitted (the plan already left them out).
        return outcome
    }

    private func marked(_ db: Connection, _ patientId: Int64, _ date: LocalDate, _ mark: String) throws -> Bool {
        try SchedulerRepository.isMarked(db, patientId: patientId, date: date, mark: mark)
    }

    private func mark(_ db: Connection, _ patientId: Int64, _ date: LocalDate, _ mark: String, _ outcome: String, _ ms: Int64) throws {
        try SchedulerRepository.mark(db, patientId: patientId, date: date, mark: mark, outcome: outcome, at: ms)
    }

}
