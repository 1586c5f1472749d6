import Synchronization
import HyponaTrackCore

/// An activation code on its way from the form that issued it to the page that shows it once
/// (post, 303, get: a reload does not issue another code, and the code never appears in an
/// address). Held in memory for the session that issued it, taken by the first look, gone
/// after `lifetime` seconds or a restart; the code's hash is all the database keeps.
final class OneTimeCodes: Sendable {
    /// What the code page shows.
    struct Issued: Sendable {
        var studyId: String
        /// As the patient types it, grouped (`ABCDE-FGHJK`).
        var code: String
        /// Milliseconds since the epoch.
        var expiresAt: Int64
        /// Set for a new enrolment (the page says the patient was enrolled).
        var monitoringEnds: LocalDate?
    }

    static let lifetime: Double = 600
    private let held = Mutex<[Int64: (issued: Issued, at: Double)]>([:])

    /// Keeps `issued` for `session` (one at a time: a later code replaces an earlier one not yet shown).
    func keep(_ issued: Issued, session: Int64, now: Double) {
        held.withLock { held in
            held = held.filter { now - $0.value.at < Self.lifetime }
            held[session] = (issued, now)
        }
    }

    /// The code `session` issued for `studyId`, once; nil after the first look or when too old.
    func take(session: Int64, studyId: String, now: Double) -> Issued? {
        held.withLock { held in
            guard let entry = held[session], entry.issued.studyId == studyId else { return nil }
            held[session] = nil
            return now - entry.at < Self.lifetime ? entry.issued : nil
        }
    }
}
