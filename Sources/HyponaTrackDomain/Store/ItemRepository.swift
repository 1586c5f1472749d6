import HyponaTrackCore
import SQLite

/// The four kinds of client list items, their tables and their API names.
public enum ItemKind: String, Sendable, CaseIterable {
    case symptom = "symptoms"
    case reactionTest = "reactionTests"
    case tappingTest = "tappingTests"
    case desmopressinDose = "desmopressinDoses"

    var table: String {
        switch self {
        case .symptom: return "symptom_entries"
        case .reactionTest: return "reaction_tests"
        case .tappingTest: return "tapping_tests"
        case .desmopressinDose: return "desmopressin_doses"
        }
    }

    /// The kind-specific columns, in the order of `ItemRepository.values`.
    var columns: [String] {
        switch self {
        case .symptom: return ["slot", "nausea", "headache", "fatigue", "confusion", "muscle_cramps", "vas"]
        case .reactionTest: return ["median_ms", "mean_ms", "errors"]
        case .tappingTest: return ["taps", "duration_seconds"]
        case .desmopressinDose: return ["dose_mcg"]
        }
    }
}

/// Reads and writes the list items' tables (`ItemKind.table`): row ↔ model conversions and the upsert. Callers own the transaction.
enum ItemRepository {
    static func values(_ s: SymptomEntry) -> [(any SQLiteBindable)?] {
        [s.slot.rawValue, s.nausea, s.headache, s.fatigue, s.confusion, s.muscleCramps, s.vas]
    }
    static func values(_ r: ReactionTest) -> [(any SQLiteBindable)?] { [r.medianMs, r.meanMs, r.errors] }
    static func values(_ t: TappingTest) -> [(any SQLiteBindable)?] { [t.taps, t.durationSeconds] }
    static func values(_ d: DesmopressinDose) -> [(any SQLiteBindable)?] { [d.doseMcg] }

    /// Inserts or replaces a live item; an item staff deleted stays deleted.
    static func upsert(_ db: Connection, _ kind: ItemKind, _ patientId: Int64, _ date: String, _ clientId: String,
                       _ time: Timestamp, _ ms: Int64, _ values: [(any SQLiteBindable)?]) throws {
        try db.execute(upsertSQL[kind]!, [patientId, date, clientId, time.description, ms] + values)
    }

    /// Each kind's upsert statement, built once (one runs for every item of every submission).
    private static let upsertSQL: [ItemKind: String] = Dictionary(uniqueKeysWithValues: ItemKind.allCases.map { kind in
        let cols = kind.columns
        let placeholders = cols.indices.map { "?\($0 + 6)" }.joined(separator: ", ")
        let updates = cols.enumerated().map { "\($1) = ?\($0 + 6)" }.joined(separator: ", ")
        return (kind, """
            INSERT INTO \(kind.table) (patient_id, date, client_id, time, updated_at, \(cols.joined(separator: ", ")))
            VALUES (?1, ?2, ?3, ?4, ?5, \(placeholders))
            ON CONFLICT (patient_id, date, client_id) DO UPDATE SET time = ?4, updated_at = ?5, \(updates)
            WHERE deleted_at IS NULL
            """)
    })

    // Column lists for `DayRepository.load`, read by position after the leading `date` (0).
    static let symptomColumns = "client_id, time, slot, nausea, headache, fatigue, confusion, muscle_cramps, vas"
    static let reactionColumns = "client_id, time, median_ms, mean_ms, errors"
    static let tappingColumns = "client_id, time, taps, duration_seconds"
    static let doseColumns = "client_id, time, dose_mcg"
    static let labColumns = "id, time, sodium"

    static func time(_ row: Row, _ index: Int = 2) throws -> Timestamp {
        let text = try row.string(index)
        guard let t = Timestamp(text) else { throw StoreError.corrupt("unreadable time \(text)") }
        return t
    }

    static func symptom(_ r: Row) throws -> SymptomEntry {
        SymptomEntry(id: try r.string(1), time: try time(r), slot: SymptomEntry.Slot(rawValue: try r.string(3)) ?? .morning,
                     nausea: try r.int(4), headache: try r.int(5), fatigue: try r.int(6), confusion: try r.int(7),
                     muscleCramps: try r.int(8), vas: try r.int(9))
    }

    static func reactionTest(_ r: Row) throws -> ReactionTest {
        ReactionTest(id: try r.string(1), time: try time(r), medianMs: try r.double(3), meanMs: try r.double(4), errors: try r.int(5))
    }

    static func tappingTest(_ r: Row) throws -> TappingTest {
        TappingTest(id: try r.string(1), time: try time(r), taps: try r.int(3), durationSeconds: try r.double(4))
    }

    static func desmopressinDose(_ r: Row) throws -> DesmopressinDose {
        DesmopressinDose(id: try r.string(1), time: try time(r), doseMcg: try r.double(3))
    }

    static func lab(_ r: Row) throws -> LabSodium {
        LabSodium(id: String(try r.int64(1)), time: try time(r), value: try r.double(3))
    }
}

/// Stored data the code cannot read back: a bug or a damaged file, never a user error.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public let message: String
    static func corrupt(_ message: String) -> StoreError { StoreError(message: message) }
    public var description: String { "store: \(message)" }
}
