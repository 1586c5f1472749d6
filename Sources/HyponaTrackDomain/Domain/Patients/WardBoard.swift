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
    }

    /// Decided by `WardBoardRules` in the core.
    public typealias MissingCheck = WardBoardRules.MissingCheck
    public typealias Status = WardBoardRules.Status

    /// Red, yellow, green, then no data (docs/product.md, "Console details"); then the
    /// highest POD first; then by study ID.
    static func urgency(_ a: Row, _ b: Row) -> Bool {
        func rank(_ r: Row) -> Int {
            switch r.level {
            case .red?: 0
            case .yellow?: 1
            case .green?, .info?: 2
            case nil: 3
            }
        }
        if rank(a) != rank(b) { return rank(a) < rank(b) }
        if a.pod != b.pod { return a.pod > b.pod }
        return a.patient.studyId.lowercased() < b.patient.studyId.lowercased()
    }
}

extension PatientQueries {
    /// The board now (one clock read); `all` also lists finished and withdrawn patients.
    public func board(all: Bool = false) throws -> WardBoard {
        try board(all: all, at: context.clock.now())
    }

    /// The board at `now` (epoch seconds), in one snapshot and a fixed number of queries
    /// whatever the number of patients; `WardBoardRules` decides each row from what they read.
    public func board(all: Bool, at now: Double) throws -> WardBoard {
        let snapshot = context.rules.snapshot
        let rules = WardBoardRules(reminders: snapshot.rules.reminders)
        return try context.read { db in
            let patients = try PatientRepository.all(db)
            let facts = try boardFacts(db, patients, snapshot.rules, now: now)
            let statuses = facts.map { rules.status(of: $0, now: now) }
            let listed = patients.indices.filter { all || statuses[$0].isWatched }
            let last = try DayRepository.lastSubmissions(db)
            let alerts = Dictionary(grouping: try AlertRepository.unresolved(db), by: \.patientId)
            let evaluations = try EvaluationRepository.current(db, patientIds: listed.map { patients[$0].id })
            var checks: [Int64: [LocalDate: Set<ReminderRules.Deadline>]] = [:]
            if let first = facts.map(\.today).min(), let latest = facts.map(\.today).max() {
                checks = try DayRepository.checks(db, from: first.adding(days: -1), to: latest)
            }
            let rows = listed.map { i in
                let patient = patients[i], open = alerts[patient.id] ?? []
                return WardBoard.Row(patient: patient, riskClass: snapshot.engine.risk.assess(patient.profile).riskClass,
                                     pod: patient.profile.pod(at: facts[i].today),
                                     level: CurrentLevel.of(evaluations[patient.id], open)?.level, openAlerts: open.count,
                                     lastSubmissionAt: last[patient.id],
                                     missingChecks: rules.missingChecks(of: facts[i], completed: checks[patient.id] ?? [:], now: now),
                                     status: statuses[i])
            }
            return WardBoard(rows: rows.sorted(by: WardBoard.urgency), hidden: patients.count - listed.count, at: now)
        }
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
