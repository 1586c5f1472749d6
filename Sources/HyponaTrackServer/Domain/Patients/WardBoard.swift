import HyponaTrackCore
import SQLite

/// The ward board (`/console/`): every patient still to watch, the most urgent first.
public struct WardBoard: Sendable {
    public var rows: [Row]
    /// Patients left off because monitoring ended or they withdrew (shown with `all`).
    public var hidden: Int

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

    public struct MissingCheck: Sendable, Equatable {
        /// 0 today, 1 yesterday.
        public var daysAgo: Int
        public var slot: ReminderRules.Deadline
    }

    public enum Status: String, Sendable {
        /// Enrolled, no activation yet (`overdue`: for more than 24 hours).
        case notActivated, activationOverdue
        case beforeMonitoring, monitoring, finished, withdrawn
    }

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
    /// The board; `all` also lists finished and withdrawn patients.
    public func board(all: Bool = false) throws -> WardBoard {
        let snapshot = context.rules.snapshot
        let now = context.clock.now()
        let nowMs = Int64(now * 1000)
        let reminders = snapshot.rules.reminders
        return try context.read { db in
            let patients = try PatientRepository.all(db)
            let last = try DayRepository.lastSubmissions(db)
            let alerts = Dictionary(grouping: try AlertRepository.unresolved(db), by: \.patientId)
            let local = patients.map { p -> (ZoneRules, LocalDate) in
                let zone = context.zone(p.profile)
                return (zone, zone.localDate(atEpochSeconds: now))
            }
            var checks: [Int64: [LocalDate: DayRepository.CheckStatus]] = [:]
            if let first = local.map(\.1).min(), let latest = local.map(\.1).max() {
                checks = try DayRepository.checks(db, from: first.adding(days: -1), to: latest)
            }
            var rows: [WardBoard.Row] = []
            var hidden = 0
            for (patient, (zone, today)) in zip(patients, local) {
                let window = try context.window(db, patient, snapshot.rules, deciding: today)
                let status: WardBoard.Status
                // Ended monitoring before activation: a never-activated patient whose window is
                // over is not on the board to watch (docs/product.md, "Console details").
                if patient.isWithdrawn { status = .withdrawn }
                else if today > window.last { status = .finished }
                else if patient.activatedAt == nil { status = nowMs - patient.enrolledAt > 24 * 3600 * 1000 ? .activationOverdue : .notActivated }
                else if today < window.first { status = .beforeMonitoring }
                else { status = .monitoring }
                if !all && (status == .withdrawn || status == .finished) { hidden += 1; continue }
                let current = try context.currentLevel(db, patientId: patient.id, unresolved: alerts[patient.id] ?? [])
                var missing: [WardBoard.MissingCheck] = []
                if status == .monitoring, let activated = patient.activatedAt {
                    for daysAgo in [1, 0] {
                        let date = today.adding(days: -daysAgo)
                        guard window.contains(date) else { continue }
                        let done = checks[patient.id]?[date]
                        for slot in ReminderRules.Deadline.allCases {
                            guard let time = reminders.deadlines[slot] else { continue }
                            let due = zone.instant(on: date, at: time).epochSeconds
                            guard due <= now, due * 1000 > Double(activated) else { continue }
                            let complete = slot == .morning ? done?.morning : done?.evening
                            if complete != true { missing.append(WardBoard.MissingCheck(daysAgo: daysAgo, slot: slot)) }
                        }
                    }
                }
                rows.append(WardBoard.Row(patient: patient, riskClass: snapshot.engine.risk.assess(patient.profile).riskClass,
                                          pod: patient.profile.pod(at: today), level: current.level?.level, openAlerts: current.openAlerts,
                                          lastSubmissionAt: last[patient.id], missingChecks: missing, status: status))
            }
            return WardBoard(rows: rows.sorted(by: WardBoard.urgency), hidden: hidden)
        }
    }
}
