import HyponaTrackCore
import SQLite

/// The ward board (`/console/`): every patient still to watch, the most urgent first.
public struct WardBoard: Sendable {
    public var rows: [Row]
    /// Patients left off because monitoring ended or they withdrew (shown with `all`).
    public var hidden: Int
    /// The one instant (epoch seconds) the board describes: its statuses, missing checks and
    /// PODs were decided at it, and the page counts submission ages from it.
    public var at: Double

    public struct Row: Sendable {
        public var patient: PatientRecord
        public var riskClass: RiskClass
        public var pod: Int
        /// The current level (`CurrentLevel`; nil: nothing yet).
        public var level: Level?
        public var openAlerts: Int
        public var lastSubmissionAt: Int64?
        /// Checks past their deadline and not complete, yesterday's and today's.
        public var missingChecks: [MissingCheck]
        public var status: Status
        /// In monitoring, but nothing reminds them: no active push device and no hook subscribed
        /// to `reminder.due` (docs/product.md, W, "Staff see it").
        public var noReminderChannel = false
        /// The reasons of the current level, red first (`why` picks what the board shows).
        public var reasons: [StoredReason] = []
        /// The first day of the current run (`WardBoardRules.since`) and the patient's today.
        public var since: LocalDate? = nil
        public var today: LocalDate
        /// The least-handled of the unresolved alerts, or `resolved` when the level is still
        /// yellow or red and a resolved alert answers for its run (`WardBoardRules.resolvedAlertHandles`);
        /// nil: nothing handled it.
        public var handling: BoardHandling? = nil
        /// The alert whose handling the row shows (who acknowledged, the last contact, the resolve).
        public var handlingAlert: AlertView? = nil
        /// The patient's zone: the board shows their times in it.
        public var zone: ZoneRules

        /// Days in the run, today included ("since 4 Dec (3 days)").
        public var sinceDays: Int? { since.map { $0.days(to: today) + 1 } }

        /// The current level's reasons, at most `limit` of them, and how many more there are.
        public func why(limit: Int = 2) -> (shown: [StoredReason], more: Int) {
            guard let level else { return ([], 0) }
            let atLevel = reasons.filter { $0.level >= level }
            let all = atLevel.isEmpty ? reasons : atLevel
            return (Array(all.prefix(limit)), max(0, all.count - limit))
        }
    }

    /// Decided by `WardBoardRules` in the core.
    public typealias MissingCheck = WardBoardRules.MissingCheck
    public typealias Status = WardBoardRules.Status

    /// Unhandled red, unhandled yellow, handled red, handled yellow, green, no data
    /// (`WardBoardRules.rank`, docs/product.md, "Ward board"); then the highest POD first; then
    /// by study ID.
    static func urgency(_ a: Row, _ b: Row) -> Bool {
        func rank(_ r: Row) -> Int { WardBoardRules.rank(level: r.level, handling: r.handling) }
        if rank(a) != rank(b) { return rank(a) < rank(b) }
        if a.pod != b.pod { return a.pod > b.pod }
        return a.patient.studyId.lowercased() < b.patient.studyId.lowercased()
    }
}

extension PatientQueries {
    /// The board now (one clock read) of the patients `scope` reaches; `all` also lists finished
    /// and withdrawn patients.
    public func board(all: Bool = false, scope: SiteScope) throws -> WardBoard {
        try board(all: all, scope: scope, at: context.clock.now())
    }

    /// The board at `now` (epoch seconds), in one snapshot and a fixed number of queries
    /// whatever the number of patients; `WardBoardRules` decides each row from what they read.
    public func board(all: Bool, scope: SiteScope = .allSites, at now: Double) throws -> WardBoard {
        let snapshot = context.rules.snapshot
        let rules = WardBoardRules(reminders: snapshot.rules.reminders)
        return try context.read { db in
            let patients = try PatientRepository.all(db, scope: scope)
            let facts = try boardFacts(db, patients, snapshot.rules, now: now)
            let statuses = facts.map { rules.status(of: $0, now: now) }
            let listed = patients.indices.filter { all || statuses[$0].isWatched }
            // Every read below only of the scope's patients: a nurse of one site among many reads her site's rows.
            let last = try DayRepository.lastSubmissions(db, scope: scope)
            let alerts = Dictionary(grouping: try AlertRepository.unresolved(db, scope: scope), by: \.patientId)
            let evaluations = try EvaluationRepository.current(db, patientIds: listed.map { patients[$0].id })
            var checks: [Int64: [LocalDate: Set<ReminderRules.Deadline>]] = [:]
            if let first = facts.map(\.today).min(), let latest = facts.map(\.today).max() {
                checks = try DayRepository.checks(db, from: first.adding(days: -1), to: latest, scope: scope)
            }
            let views = Dictionary(grouping: try AlertRepository.boardViews(db, scope: scope), by: \.studyId)
            let days = try EvaluationRepository.dailyLevels(db, patientIds: listed.map { patients[$0].id })
            // A gateway subscribed to reminder.due reminds the patients of the sites it hears
            // (`hooks[].sites`; none named: everyone); else a patient needs a device.
            let gateways = context.configuration.hooks.filter { $0.events.contains(.reminderDue) }
            let everyone = gateways.contains { $0.sites == nil }
            let gatewaySites = everyone ? [] : try Self.siteIds(db, codes: Set(gateways.flatMap { $0.sites ?? [] }))
            let reachable = everyone ? [] : try PushDeviceRepository.patientsWithActiveDevice(db)
            let rows = listed.map { i in
                let patient = patients[i], open = alerts[patient.id] ?? []
                let current = CurrentLevel.of(evaluations[patient.id], open)
                var row = WardBoard.Row(patient: patient, riskClass: snapshot.engine.risk.assess(patient.profile).riskClass,
                                        pod: patient.profile.pod(at: facts[i].today), level: current?.level, openAlerts: open.count,
                                        lastSubmissionAt: last[patient.id],
                                        missingChecks: rules.missingChecks(of: facts[i], completed: checks[patient.id] ?? [:], now: now),
                                        status: statuses[i], reasons: current?.reasons ?? [], today: facts[i].today, zone: facts[i].zone)
                row.handle(views[patient.studyId] ?? [], evaluated: days[patient.id] ?? [:])
                row.noReminderChannel = !everyone && !gatewaySites.contains(patient.siteId) && statuses[i] == .monitoring
                    && !reachable.contains(patient.id)
                return row
            }
            return WardBoard(rows: rows.sorted(by: WardBoard.urgency), hidden: patients.count - listed.count, at: now)
        }
    }

    /// The ids of the sites with these codes (a code that is no site has none).
    private static func siteIds(_ db: Connection, codes: Set<String>) throws -> Set<Int64> {
        guard !codes.isEmpty else { return [] }
        return Set(try SiteRepository.all(db).filter { codes.contains($0.code) }.map(\.id))
    }

    /// What `WardBoardRules` needs of each patient at `now`: their zone, today there, and a
    /// window that decides today (the evaluations of those past the shortest window in one read).
    private func boardFacts(_ db: Connection, _ patients: [PatientRecord], _ rules: RuleSet,
                            now: Double) throws -> [WardBoardRules.Patient] {
        let zones = patients.map { context.zone($0.profile) }
        let todays = zones.map { $0.localDate(atEpochSeconds: now) }
        let windows = try MonitoringWindow.stored(db, deciding: Array(zip(patients, todays)), rules: rules.reminders)
        return patients.indices.map { i in
            WardBoardRules.Patient(withdrawn: patients[i].isWithdrawn, enrolledAtMs: patients[i].enrolledAt,
                                   activatedAtMs: patients[i].activatedAt, window: windows[i], zone: zones[i], today: todays[i])
        }
    }
}

extension WardBoard.Row {
    /// Handling and since from the patient's board alerts (`AlertRepository.boardViews`: the
    /// unresolved ones and the last resolved one of each kind) and their evaluated days.
    mutating func handle(_ alerts: [AlertView], evaluated: [LocalDate: Level]) {
        let unresolved = alerts.filter { $0.state != .resolved }
        func state(_ a: AlertView) -> BoardHandling {
            BoardHandling(resolved: a.state == .resolved, acknowledged: a.state == .acknowledged,
                          newDataSinceAcknowledged: a.newDataAt != nil, contacted: !a.contacts.isEmpty)
        }
        if let least = WardBoardRules.handling(of: unresolved.map(state)) {
            handlingAlert = unresolved.first { state($0) == least }
            handling = least
        } else if let level, level >= .yellow {
            // The latest resolve that belongs to the current run, never one of an earlier episode.
            let run = WardBoardRules.since(level: level, alertFirstDay: nil, evaluated: evaluated)
            let answering = alerts.filter { a in
                guard a.state == .resolved, let resolved = a.resolved else { return false }
                return WardBoardRules.resolvedAlertHandles(level: level, runSince: run, alertLevel: a.level,
                                                           alertLastDay: a.lastDate ?? a.date,
                                                           resolvedOn: zone.localDate(atEpochSeconds: Double(resolved.at) / 1000))
            }
            if let resolved = answering.max(by: { $0.resolved!.at < $1.resolved!.at }) {
                handlingAlert = resolved
                handling = .resolved
            }
        }
        guard let level else { return }
        let alertFirstDay = unresolved.filter { $0.level >= level }.map(\.date).min()
        since = WardBoardRules.since(level: level, alertFirstDay: alertFirstDay, evaluated: evaluated)
    }
}
