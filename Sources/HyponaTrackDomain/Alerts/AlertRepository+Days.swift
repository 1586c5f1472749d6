import HyponaTrackCore
import SQLite

/// The days an alert covers (`alert_days`, docs/product.md, third round, C): each with its own
/// level and reasons; the alert's first day, last day, level and reasons follow from them.
extension AlertRepository {
    /// One covered day.
    struct CoveredDay: Sendable, Equatable {
        var date: LocalDate
        var level: Level
        var reasons: [StoredReason]
        var pod: Int
    }

    /// The patient's unresolved alert of `kind` (at most one).
    static func live(_ db: Connection, patientId: Int64, kind: AlertKind) throws -> Alert? {
        try db.queryOne("SELECT \(columns) FROM alerts WHERE patient_id = ? AND kind = ? AND state != 'resolved'",
                        [patientId, kind.rawValue]).map(decode)
    }

    /// Removes the unfired steps of an alert's ladder; returns the tiers that fired.
    static func dropUnfiredSteps(_ db: Connection, alertId: Int64, ladder: Int) throws -> Set<Int> {
        try db.execute("DELETE FROM escalation_steps WHERE alert_id = ? AND ladder = ? AND fired_at IS NULL", [alertId, ladder])
        return Set(try db.query("SELECT tier FROM escalation_steps WHERE alert_id = ? AND ladder = ?", [alertId, ladder]).map { try $0.int(0) })
    }

    /// The patient's last resolved alert of `kind` that covers `date`.
    static func lastResolved(_ db: Connection, patientId: Int64, covering date: LocalDate, kind: AlertKind) throws -> Alert? {
        try db.queryOne("""
            SELECT \(qualifiedColumns) FROM alerts a JOIN alert_days d ON d.alert_id = a.id
            WHERE a.patient_id = ? AND d.date = ? AND a.kind = ? AND a.state = 'resolved' ORDER BY a.id DESC LIMIT 1
            """, [patientId, date.description, kind.rawValue]).map(decode)
    }

    /// The days an alert covers, by date.
    static func days(_ db: Connection, alertId: Int64) throws -> [LocalDate: CoveredDay] {
        var out: [LocalDate: CoveredDay] = [:]
        for r in try db.query("SELECT date, level, reasons, pod FROM alert_days WHERE alert_id = ? ORDER BY date", [alertId]) {
            let day = CoveredDay(date: try date(r.string(0)), level: try enumValue(r.string(1)),
                                 reasons: StoredReasonsColumn.decode(try r.string(2)), pod: try r.int(3))
            out[day.date] = day
        }
        return out
    }

    /// Adds a day to the alert, or replaces what it holds for one it covers.
    static func cover(_ db: Connection, alertId: Int64, _ day: CoveredDay, at ms: Int64) throws {
        try db.execute("""
            INSERT INTO alert_days (alert_id, date, level, reasons, pod, added_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (alert_id, date) DO UPDATE SET level = excluded.level, reasons = excluded.reasons
            """, [alertId, day.date.description, day.level.rawValue, StoredReasonsColumn.encode(day.reasons), day.pod, ms])
    }

    /// The alert's first day (and its day after surgery) and last day from the days it covers.
    static func refreshSpan(_ db: Connection, alertId: Int64, at ms: Int64) throws {
        let days = try self.days(db, alertId: alertId).values.sorted { $0.date < $1.date }
        guard let first = days.first, let last = days.last else { return }
        let level = days.map(\.level).max() ?? first.level
        let current = try load(db, id: alertId)
        let reasons = days.reduce(current?.reasons ?? []) { StoredReason.merge($0, $1.reasons) }
        try db.execute("UPDATE alerts SET date = ?, pod = ?, last_date = ?, level = ?, reasons = ?, updated_at = ? WHERE id = ?",
                       [first.date.description, first.pod, last.date.description, max(level, current?.level ?? level).rawValue,
                        StoredReasonsColumn.encode(reasons), ms, alertId])
    }

    /// A day joined the alert after its acknowledgement: the board shows "new data since acknowledged".
    static func markNewData(_ db: Connection, alertId: Int64, at ms: Int64) throws {
        try db.execute("UPDATE alerts SET new_data_at = ?, updated_at = ? WHERE id = ?", [ms, ms, alertId])
    }

    /// The patient's unresolved alerts covering `date`, each with the level and reasons it holds
    /// for that day (not its highest): what `/v1/me/today` and the web check-in show for today.
    static func holding(_ db: Connection, patientId: Int64, date: LocalDate) throws -> [Alert] {
        try db.query("""
            SELECT a.id, a.patient_id, d.date, a.kind, d.level, d.reasons, d.pod, a.state, a.ladder, a.ladder_started_at, a.last_date,
                   a.new_data_at
            FROM alerts a JOIN alert_days d ON d.alert_id = a.id
            WHERE a.patient_id = ? AND d.date = ? AND a.state != 'resolved' ORDER BY a.id
            """, [patientId, date.description]).map(decode)
    }
}

extension AlertRepository {
    /// `views` with the days each covers (`AlertView.days`), oldest first.
    static func withDays(_ db: Connection, _ views: [AlertView]) throws -> [AlertView] {
        guard !views.isEmpty else { return views }
        var days: [Int64: [AlertView.CoveredDay]] = [:]
        let ids = views.map(\.id)
        // In slices, well below SQLite's bound-parameter limit.
        for start in stride(from: 0, to: ids.count, by: 500) {
            let slice = Array(ids[start..<min(start + 500, ids.count)])
            let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
            for r in try db.query("SELECT alert_id, date, pod, level, reasons FROM alert_days WHERE alert_id IN (\(marks)) ORDER BY alert_id, date",
                                  slice.map { $0 as (any SQLiteBindable)? }) {
                days[try r.int64(0), default: []].append(AlertView.CoveredDay(date: try date(r.string(1)), pod: try r.int(2),
                                                                             level: try enumValue(r.string(3)),
                                                                             reasons: StoredReasonsColumn.decode(try r.string(4))))
            }
        }
        return views.map { view in
            var out = view
            out.days = days[view.id] ?? []
            return out
        }
    }
}
