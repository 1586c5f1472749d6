import HyponaTrackCore
import SQLite

/// Reads and writes a patient's days, list items and lab values. Callers own the transaction.
enum DayRepository {
    /// The patient's days between two dates (inclusive), with live list items and lab values.
    /// A date with only lab values appears too.
    static func load(_ db: Connection, patientId: Int64, from: LocalDate, to: LocalDate) throws -> [DailyEntry] {
        // Explicit columns read by position: this runs in every submission's transaction, where
        // `SELECT *` and name lookups showed up in the profile.
        var days: [LocalDate: DailyEntry] = [:]
        let range: [(any SQLiteBindable)?] = [patientId, from.description, to.description]
        for row in try db.query("SELECT \(scalarColumns) FROM days WHERE patient_id = ? AND date BETWEEN ? AND ?", range) {
            guard let d = try scalars(row) else { continue }
            days[d.date] = d
        }
        for item in ItemSQL.lists {
            for row in try db.query(item.sql, range) {
                guard let date = LocalDate(try row.string(0)) else { continue }
                var d = days[date] ?? DailyEntry(date: date)
                try item.add(&d, row)
                days[date] = d
            }
        }
        return days.values.sorted { $0.date < $1.date }
    }

    /// The scalar columns of `days` that `scalars` reads, by position (date first).
    static let scalarColumns = """
        date, weight_morning_kg, weight_evening_kg, fluid_intake_ml, urine_sg, vomiting_episodes,
        emergency_symptoms, steps, hrv_sdnn_ms, sleep_minutes, resting_heart_rate
        """

    /// A day's scalars from a row of `scalarColumns`; nil for an unreadable date.
    static func scalars(_ row: Row) throws -> DailyEntry? {
        guard let date = LocalDate(try row.string(0)) else { return nil }
        var d = DailyEntry(date: date)
        d.weightMorningKg = try row.optionalDouble(1)
        d.weightEveningKg = try row.optionalDouble(2)
        d.fluidIntakeMl = try row.optionalDouble(3)
        d.urineSG = try row.optionalDouble(4)
        d.vomitingEpisodes = try row.optionalInt(5)
        let symptoms = try row.string(6)
        if !symptoms.isEmpty {
            d.emergencySymptoms = Set(symptoms.split(separator: ",").map(String.init))
        }
        d.steps = try row.optionalInt(7)
        d.hrvSdnnMs = try row.optionalDouble(8)
        d.sleepMinutes = try row.optionalInt(9)
        d.restingHeartRate = try row.optionalInt(10)
        return d
    }

    /// The item queries of `load`, built once (they run in every submission). A day's client
    /// items come by time, then client id (unique per day and kind): an order that follows from
    /// the items alone, so `storedOrder` can put a merged day in it without asking the store.
    enum ItemSQL {
        static func live(_ columns: String, _ table: String, tieBreak: String = "client_id") -> String {
            """
            SELECT date, \(columns) FROM \(table)
            WHERE patient_id = ? AND date BETWEEN ? AND ? AND deleted_at IS NULL ORDER BY time, \(tieBreak)
            """
        }

        /// One list of a day: its query's columns, table and order, and how a row joins the day.
        struct List: Sendable {
            let columns: String
            let table: String
            let tieBreak: String
            let add: @Sendable (inout DailyEntry, Row) throws -> Void
            var sql: String { live(columns, table, tieBreak: tieBreak) }
        }

        static let lists: [List] = [
            List(columns: ItemRepository.symptomColumns, table: "symptom_entries", tieBreak: "client_id") { d, r in
                d.symptoms.append(try ItemRepository.symptom(r))
            },
            List(columns: ItemRepository.reactionColumns, table: "reaction_tests", tieBreak: "client_id") { d, r in
                d.reactionTests.append(try ItemRepository.reactionTest(r))
            },
            List(columns: ItemRepository.tappingColumns, table: "tapping_tests", tieBreak: "client_id") { d, r in
                d.tappingTests.append(try ItemRepository.tappingTest(r))
            },
            List(columns: ItemRepository.doseColumns, table: "desmopressin_doses", tieBreak: "client_id") { d, r in
                d.desmopressinDoses.append(try ItemRepository.desmopressinDose(r))
            },
            List(columns: ItemRepository.labColumns, table: "lab_values", tieBreak: "rowid") { d, r in d.labSodium.append(try ItemRepository.lab(r)) },
        ]
    }

    /// `day` as `load` would return it once stored: each client item list by time, then id (as
    /// TEXT compares: bytewise), and the times of the items `patch` brought as they read back
    /// from their stored text (the others were read from the store). Nil if a time would not
    /// read back.
    ///
    /// The items `patch` did not bring are already in that order (read so by `load`, or put so
    /// by an earlier `storedOrder` for the `DayWindowCache`), so only the arrived ones are placed,
    /// each by a binary search: the stored text of a time is worked out for a few items, not all.
    static func storedOrder(_ day: DailyEntry, patch: DayPatch) -> DailyEntry? {
        func precedes(_ a: (time: String, id: String), _ b: (time: String, id: String)) -> Bool {
            a.time != b.time ? a.time.utf8.lexicographicallyPrecedes(b.time.utf8) : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
        func ordered<T: DayItem>(_ items: [T], _ incoming: [T]) -> [T]? {
            guard !incoming.isEmpty else { return items }
            let arrivedIds = Set(incoming.map { $0.id })
            var kept: [T] = []
            var arrived: [(key: (time: String, id: String), item: T)] = []
            kept.reserveCapacity(items.count)
            for var item in items {
                guard arrivedIds.contains(item.id) else { kept.append(item); continue }
                let text = item.time.description
                guard let stored = Timestamp(text) else { return nil }
                item.time = stored
                arrived.append(((text, item.id), item))
            }
            arrived.sort { precedes($0.key, $1.key) }
            var keptKeys = [(time: String, id: String)?](repeating: nil, count: kept.count)
            func keptKey(_ j: Int) -> (time: String, id: String) {
                if let key = keptKeys[j] { return key }
                let key = (kept[j].time.description, kept[j].id)
                keptKeys[j] = key
                return key
            }
            var result: [T] = []
            result.reserveCapacity(items.count)
            var next = 0   // the first kept item not yet in `result`
            for entry in arrived {
                // The first kept item at or after `next` that the arrived one precedes.
                var low = next, high = kept.count
                while low < high {
                    let mid = (low + high) / 2
                    if precedes(entry.key, keptKey(mid)) { high = mid } else { low = mid + 1 }
                }
                result.append(contentsOf: kept[next..<low])
                result.append(entry.item)
                next = low
            }
            result.append(contentsOf: kept[next...])
            return result
        }
        var d = day
        guard let symptoms = ordered(day.symptoms, patch.symptoms),
              let reactions = ordered(day.reactionTests, patch.reactionTests),
              let tappings = ordered(day.tappingTests, patch.tappingTests),
              let doses = ordered(day.desmopressinDoses, patch.desmopressinDoses)
        else { return nil }
        d.symptoms = symptoms
        d.reactionTests = reactions
        d.tappingTests = tappings
        d.desmopressinDoses = doses
        return d
    }

    static func load(_ db: Connection, patientId: Int64, date: LocalDate) throws -> DailyEntry {
        try load(db, patientId: patientId, from: date, to: date).first ?? DailyEntry(date: date)
    }

    /// Client ids of items staff deleted on that day: a retried submission must not bring them back.
    static func deletedItemIds(_ db: Connection, patientId: Int64, date: LocalDate) throws -> Set<String> {
        Set(try db.query(deletedItemsSQL, [patientId, date.description]).map { try $0.string(0) })
    }

    private static let deletedItemsSQL = ItemKind.allCases.map {
        "SELECT client_id FROM \($0.table) WHERE patient_id = ?1 AND date = ?2 AND deleted_at IS NOT NULL"
    }.joined(separator: " UNION ALL ")

    /// Whether anything (patient data or lab values) is stored for the date.
    static func hasData(_ db: Connection, patientId: Int64, date: LocalDate) throws -> Bool {
        try db.queryOne("""
            SELECT 1 FROM days WHERE patient_id = ?1 AND date = ?2
            UNION ALL SELECT 1 FROM lab_values WHERE patient_id = ?1 AND date = ?2 AND deleted_at IS NULL
            LIMIT 1
            """, [patientId, date.description]) != nil
    }

    /// Writes the day's scalars and upserts the patch's list items; `byPatient`: the patient's
    /// own submission, which also moves `submitted_at` (a staff correction does not).
    static func save(_ db: Connection, patientId: Int64, day: DailyEntry, patch: DayPatch, byPatient: Bool, at ms: Int64) throws {
        let symptoms = day.emergencySymptoms.sorted().joined(separator: ",")
        try db.execute("""
            INSERT INTO days (patient_id, date, weight_morning_kg, weight_evening_kg, fluid_intake_ml, urine_sg,
                              vomiting_episodes, emergency_symptoms, steps, hrv_sdnn_ms, sleep_minutes, resting_heart_rate,
                              created_at, updated_at, submitted_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13, ?14)
            ON CONFLICT (patient_id, date) DO UPDATE SET
                weight_morning_kg = ?3, weight_evening_kg = ?4, fluid_intake_ml = ?5, urine_sg = ?6,
                vomiting_episodes = ?7, emergency_symptoms = ?8, steps = ?9, hrv_sdnn_ms = ?10, sleep_minutes = ?11,
                resting_heart_rate = ?12, updated_at = ?13, submitted_at = COALESCE(?14, submitted_at)
            """, [patientId, day.date.description, day.weightMorningKg, day.weightEveningKg, day.fluidIntakeMl, day.urineSG,
                  day.vomitingEpisodes, symptoms, day.steps, day.hrvSdnnMs, day.sleepMinutes, day.restingHeartRate, ms,
                  byPatient ? ms : nil])
        let date = day.date.description
        for s in patch.symptoms { try ItemRepository.upsert(db, .symptom, patientId, date, s.id, s.time, ms, ItemRepository.values(s)) }
        for r in patch.reactionTests { try ItemRepository.upsert(db, .reactionTest, patientId, date, r.id, r.time, ms, ItemRepository.values(r)) }
        for t in patch.tappingTests { try ItemRepository.upsert(db, .tappingTest, patientId, date, t.id, t.time, ms, ItemRepository.values(t)) }
        for d in patch.desmopressinDoses {
            try ItemRepository.upsert(db, .desmopressinDose, patientId, date, d.id, d.time, ms, ItemRepository.values(d))
        }
    }

    /// Soft-deletes one client item; returns false when no live item has that id.
    static func deleteItem(_ db: Connection, kind: ItemKind, patientId: Int64, date: LocalDate, clientId: String,
                           by actor: String, reason: String, at ms: Int64) throws -> Bool {
        try db.execute("""
            UPDATE \(kind.table) SET deleted_at = ?, deleted_by = ?, deletion_reason = ?
            WHERE patient_id = ? AND date = ? AND client_id = ? AND deleted_at IS NULL
            """, [ms, actor, reason, patientId, date.description, clientId]) == 1
    }

    /// How many live (not deleted) lab values the date holds.
    static func labCount(_ db: Connection, patientId: Int64, date: LocalDate) throws -> Int {
        try db.queryOne("SELECT COUNT(*) FROM lab_values WHERE patient_id = ? AND date = ? AND deleted_at IS NULL",
                        [patientId, date.description])?.int(0) ?? 0
    }

    static func addLab(_ db: Connection, patientId: Int64, date: LocalDate, time: Timestamp, sodium: Double,
                       by actor: String, at ms: Int64) throws -> Int64 {
        try db.execute("""
            INSERT INTO lab_values (patient_id, date, time, sodium, entered_at, entered_by) VALUES (?, ?, ?, ?, ?, ?)
            """, [patientId, date.description, time.description, sodium, ms, actor])
        return db.lastInsertRowID
    }

    /// Soft-deletes a lab value; returns its date, nil when there is no live lab value with that id.
    static func deleteLab(_ db: Connection, patientId: Int64, labId: Int64, by actor: String, reason: String,
                          at ms: Int64) throws -> (date: LocalDate, sodium: Double)? {
        guard let row = try db.queryOne("SELECT date, sodium FROM lab_values WHERE id = ? AND patient_id = ? AND deleted_at IS NULL",
                                        [labId, patientId]),
              let date = LocalDate(try row.string("date")) else { return nil }
        try db.execute("UPDATE lab_values SET deleted_at = ?, deleted_by = ?, deletion_reason = ? WHERE id = ?",
                       [ms, actor, reason, labId])
        return (date, try row.double("sodium"))
    }

    /// Whether the patient has any day or lab value stored, a withdrawn lab included (it was
    /// evaluated and sent under its postoperative day).
    static func hasAnyDayOrLab(_ db: Connection, patientId: Int64) throws -> Bool {
        try db.queryOne("""
            SELECT 1 FROM days WHERE patient_id = ?1 UNION ALL SELECT 1 FROM lab_values WHERE patient_id = ?1 LIMIT 1
            """, [patientId]) != nil
    }
}
