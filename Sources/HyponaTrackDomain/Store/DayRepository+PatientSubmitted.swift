import HyponaTrackCore
import SQLite

extension DayRepository {
    /// The dates in `from…to` the patient wrote themself (`days.submitted_at` is set by their
    /// app's or the web check-in's submission; a staff correction or a confirmed import leaves
    /// it as it was), for the missing-data alerts: only patient-submitted data breaks the
    /// silence of `no_data_2d`, and only the checks of such a day count for `missing_checkin`
    /// (docs/clinical-rules.md §8).
    static func patientSubmittedDates(_ db: Connection, patientId: Int64, from: LocalDate, to: LocalDate) throws -> Set<LocalDate> {
        Set(try db.query("""
            SELECT date FROM days WHERE patient_id = ? AND date BETWEEN ? AND ? AND submitted_at IS NOT NULL
            """, [patientId, from.description, to.description]).compactMap { LocalDate(try $0.string(0)) })
    }

    /// When the patient last submitted anything themself (ms), or nil.
    static func lastSubmittedAt(_ db: Connection, patientId: Int64) throws -> Int64? {
        try db.queryOne("SELECT MAX(submitted_at) FROM days WHERE patient_id = ?", [patientId])?.optionalInt64(0)
    }
}
