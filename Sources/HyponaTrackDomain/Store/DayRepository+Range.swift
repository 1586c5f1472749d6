import HyponaTrackCore
import SQLite

extension DayRepository {
    /// Every day of the patients whose row ids lie in `patients`, as `load` reads one patient's
    /// (the same values, items in the same order), by patient row id: one query per table for a
    /// whole slice of patients (a backtest replays every stored day).
    static func load(_ db: Connection, patients: ClosedRange<Int64>) throws -> [Int64: [DailyEntry]] {
        var days: [Int64: [LocalDate: DailyEntry]] = [:]
        let range: [(any SQLiteBindable)?] = [patients.lowerBound, patients.upperBound]
        try db.forEachRow("SELECT \(scalarColumns), patient_id FROM days WHERE patient_id BETWEEN ? AND ?", range) { row in
            if let d = try scalars(row) { days[try row.int64(11), default: [:]][d.date] = d }
            return true
        }
        for item in ItemSQL.lists {
            // The patient id last, so the item columns keep the positions `ItemRows` reads.
            let count = item.columns.split(separator: ",").count
            let sql = """
                SELECT date, \(item.columns), patient_id FROM \(item.table)
                WHERE patient_id BETWEEN ? AND ? AND deleted_at IS NULL ORDER BY patient_id, date, time, \(item.tieBreak)
                """
            try db.forEachRow(sql, range) { row in
                guard let date = LocalDate(try row.string(0)) else { return true }
                let patient = try row.int64(count + 1)
                var d = days[patient]?[date] ?? DailyEntry(date: date)
                try item.add(&d, row)
                days[patient, default: [:]][date] = d
                return true
            }
        }
        return days.mapValues { $0.values.sorted { $0.date < $1.date } }
    }
}
