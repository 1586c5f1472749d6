import Synchronization

/// Patients as a day submission plans with them, so that a patient's next submission does not
/// read its patient row again (the plan's largest read once the days come from the
/// `DayWindowCache`).
///
/// Used only for planning on a reader snapshot, whose result the single writer checks against
/// the stored revision (`patient_revisions`) before it stores anything (`SubmissionPlan.isCurrent`): a
/// record older than the store costs a plan made again under the write lock, never a wrong
/// result. A record is kept only
/// - as read on a reader's snapshot (committed data), or
/// - after the COMMIT of a submission, as the plan had it (checked current under the write
///   lock) with the revision read after its writes: the submission changes the patient's days,
///   not the patient row, whose revision the triggers moved;
/// never from inside a write transaction that might still roll back. A plan made from a kept
/// row that refuses the submission is made again from the store (`PreparedSubmission`): a
/// refusal must not rest on an older row. Debug builds compare every kept row used with the
/// store when the store is at the same revision (`SubmissionPlan.make`).
final class PatientCache: Sendable {
    private let records = Mutex<[Int64: PatientRecord]>([:])
    /// Bounded like the other caches: past this many patients it starts over.
    let capacity: Int

    init(capacity: Int = 2048) { self.capacity = capacity }

    func record(id: Int64) -> PatientRecord? { records.withLock { $0[id] } }

    func forget(id: Int64) { records.withLock { _ = $0.removeValue(forKey: id) } }

    /// Keeps `record` unless a newer revision of the patient is already kept.
    func store(_ record: PatientRecord) {
        records.withLock { table in
            if let kept = table[record.id], kept.revision > record.revision { return }
            table.set(record, forKey: record.id, capacity: capacity)
        }
    }
}
