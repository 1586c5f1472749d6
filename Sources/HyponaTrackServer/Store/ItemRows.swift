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

    /// The kind-specific columns, in the order of `ItemRows.values`.
    var columns: [String] {
        switch self {
        case .symptom: return ["slot", "nausea", "headache", "fatigue", "confusion", "muscle_cramps", "vas"]
        case .reactionTest: return ["median_ms", "mean_ms", "errors"]
        case .tappingTest: return ["taps", "duration_seconds"]
        case .desmopressinDose: return ["dose_mcg"]
        }
    }
}

/// Row ↔ model conversions for list items.
enum ItemRows {
    static func values(_ s: SymptomEntry) -> [(any SQLiteBindable)?] {
        [s.slot.rawValue, s.nausea, s.headache, s.fatigue, s.confusion, s.muscleCramps, s.vas]
    }
    static func values(_ r: ReactionTest) -> [(any SQLiteBindable)?] { [r.medianMs, r.meanMs, r.errors] }
    static func values(_ t: TappingTest) -> [(any SQLiteBindable)?] { [t.taps, t.durationSeconds] }
    static func values(_ d: DesmopressinDose) -> [(any SQLiteBindable)?] { [d.doseMcg] }

    /// Inserts or replaces a live item; an item staff deleted stays deleted.
    static func upsert(_ db: Connection, _ kind: ItemKind, _ patientId: Int64, _ date: String, _ clientId: String,
                       _ time: Timestamp, _ ms: Int64, _ values: [(any SQLiteBindable)?]) throws {
        let cols = kind.columns
        let placeholders = cols.indices.map { "?\($0 + 6)" }.joined(separator: ", ")
        let updates = cols.enumerated().map { "\($1) = ?\($0 + 6)" }.joined(separator: ", ")
        try db.execute("""
            INSERT INTO \(kind.table) (patient_id, date, client_id, time, updated_at, \(cols.joined(separator: ", ")))
            VALUES (?1, ?2, ?3, ?4, ?5, \(placeholders))
            ON CONFLICT (patient_id, date, client_id) DO UPDATE SET time = ?4, updated_at = ?5, \(updates)
            WHERE deleted_at IS NULL
            """, [patientId, date, clientId, time.description, ms] + values)
    }

    static func time(_ row: Row) throws -> Timestamp {
        let text = try row.string("time")
        guard let t = Timestamp(text) else { throw StoreError.corrupt("unreadable time \(text)") }
        return t
    }

    static func symptom(_ r: Row) throws -> SymptomEntry {
        SymptomEntry(id: try r.string("client_id"), time: try time(r),
                     slot: SymptomEntry.Slot(rawValue: try r.string("slot")) ?? .morning,
                     nausea: try r.int("nausea"), headache: try r.int("headache"), fatigue: try r.int("fatigue"),
                     confusion: try r.int("confusion"), muscleCramps: try r.int("muscle_cramps"), vas: try r.int("vas"))
    }

    static func reactionTest(_ r: Row) throws -> ReactionTest {
        ReactionTest(id: try r.string("client_id"), time: try time(r), medianMs: try r.double("median_ms"),
                     meanMs: try r.double("mean_ms"), errors: try r.int("errors"))
    }

    static func tappingTest(_ r: Row) throws -> TappingTest {
        TappingTest(id: try r.string("client_id"), time: try time(r), taps: try r.int("taps"),
                    durationSeconds: try r.double("duration_seconds"))
    }

    static func desmopressinDose(_ r: Row) throws -> DesmopressinDose {
        DesmopressinDose(id: try r.string("client_id"), time: try time(r), doseMcg: try r.double("dose_mcg"))
    }

    static func lab(_ r: Row) throws -> LabSodium {
        LabSodium(id: String(try r.int64("id")), time: try time(r), value: try r.double("sodium"))
    }
}

/// Stored data the code cannot read back: a bug or a damaged file, never a user error.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public let message: String
    static func corrupt(_ message: String) -> StoreError { StoreError(message: message) }
    public var description: String { "store: \(message)" }
}
