import HyponaTrackCore
import SQLite

extension DayRepository {
    /// Every day of the patients whose row ids lie in `patients`, as `load` reads one patient's
    /// (the same values, items in the same order), by patient row id, each patient's in date
    /// order: one query per table for a whole slice of patients (a backtest replays every stored
    /// day). The days live in one array, found by (patient, day) while items join them.
    static func load(_ db: Connection, patients: ClosedRange<Int64>) throws -> [Int64: [DailyEntry]] {
        struct Key: Hashable { let patient: Int64, day: Int }
        var entries: [DailyEntry] = [], owners: [Int64] = [], index: [Key: Int] = [:]
        let range: [(any SQLiteBindable)?] = [patients.lowerBound, patients.upperBound]
        try db.forEachRow("SELECT \(scalarColumns), patient_id FROM days WHERE patient_id BETWEEN ? AND ?", range) { row in
            guard let d = try scalars(row) else { return true }
            let patient = try row.int64(11)
            index[Key(patient: patient, day: d.date.daysSinceEpoch)] = entries.count
            entries.append(d)
            owners.append(patient)
            return true
        }
        for item in ItemSQL.lists {
            // The patient id last, so the item columns keep the positions `ItemRepository` reads.
            let count = item.columns.split(separator: ",").count
            let sql = """
                SELECT date, \(item.columns), patient_id FROM \(item.table)
                WHERE patient_id BETWEEN ? AND ? AND deleted_at IS NULL ORDER BY patient_id, date, time, \(item.tieBreak)
                """
            try db.forEachRow(sql, range) { row in
                guard let date = LocalDate(try row.string(0)) else { return true }
                let key = Key(patient: try row.int64(count + 1), day: date.daysSinceEpoch)
                let i: Int
                if let found = index[key] { i = found } else {
                    // A date with only items or lab values.
                    i = entries.count
                    index[key] = i
                    entries.append(DailyEntry(date: date))
                    owners.append(key.patient)
                }
                try item.add(&entries[i], row)
                return true
            }
        }
        var out: [Int64: [DailyEntry]] = [:]
        for (i, patient) in owners.enumerated() { out[patient, default: []].append(entries[i]) }
        return out.mapValues { days in
            days.indices.dropFirst().allSatisfy { days[$0 - 1].date < days[$0].date } ? days : days.sorted { $0.date < $1.date }
        }
    }
}
