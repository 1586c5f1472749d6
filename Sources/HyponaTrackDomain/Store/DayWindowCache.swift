import HyponaTrackCore
import Synchronization

/// The days a submission reads (D-2 … D+2 with their items and lab values, and the ids of D's
/// items staff deleted), kept per patient under the patient's revision, so a patient's next
/// submission for the same date does not read them again (the read cost more than anything
/// else a submission did).
///
/// Correct because of the patient revision (`PatientsSchema.v2`, `v3`): triggers move it on with every
/// change to the patient, its days, items and lab values, and it never goes back, so at one
/// committed revision the stored days are one thing. An entry is stored only
/// - from a reader's snapshot (committed data, read at the revision read in the same snapshot), or
/// - after the COMMIT of a submission, as the days it read (checked current under the write
///   lock) with the merged day put in, in the order the store returns them
///   (`DayRepository.storedOrder`), under the revision read after its writes;
/// never from inside a write transaction that might still roll back. A lookup with any other
/// revision misses. Debug builds check every hit against the store.
final class DayWindowCache: Sendable {
    struct Window: Sendable {
        var revision: Int64
        var date: LocalDate
        /// D-2 … D+2 as `DayRepository.load` returns them (by date, items in stored order).
        var days: [DailyEntry]
        /// Client ids of D's items staff deleted (`DayRepository.deletedItemIds`); nil: not read
        /// (the submission had no items).
        var deletedIds: Set<String>?
    }

    private let windows = Mutex<[Int64: Window]>([:])
    /// Bounded: past this many patients the cache starts over. A window is a few kB; the
    /// patients submitting at the same moment are far fewer than this (a study's whole cohort
    /// usually is), so a miss after a start-over costs one read each.
    let capacity: Int

    init(capacity: Int = 512) { self.capacity = capacity }

    /// The window kept at `revision`, for whatever date: a submission for the same date takes
    /// it whole, one for a nearby date needs only the days it does not hold (a patient's first
    /// submission of a new day).
    func window(patientId: Int64, revision: Int64) -> Window? {
        guard let w = windows.withLock({ $0[patientId] }), w.revision == revision else { return nil }
        return w
    }

    /// Keeps `window` unless a newer revision of the patient is already kept.
    func store(_ window: Window, patientId: Int64) {
        windows.withLock { table in
            if let kept = table[patientId], kept.revision > window.revision { return }
            table.set(window, forKey: patientId, capacity: capacity)
        }
    }
}
