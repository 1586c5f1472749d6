import SQLite
import Synchronization

/// Every patient as decoded once: the outcome report and a backtest read every patient, and
/// decoding each stored profile (JSON) was most of the report's time with tens of thousands of
/// patients. A kept record is used only while the patient's revision (`patient_revisions`,
/// moved by every change to the patient row) is the one it was read at; the rest are read again.
final class DecodedPatients: Sendable {
    private let kept = Mutex<[Int64: PatientRecord]>([:])

    /// Every patient by study ID, as `PatientRepository.all` reads them, from the kept records
    /// where they are current. Callers own the (read) transaction.
    func all(_ db: Connection) throws -> [PatientRecord] {
        let known = kept.withLock { $0 }
        let revisions = try PatientRepository.revisions(db)
        let stale = revisions.filter { known[$0.id]?.revision != $0.revision }
        // Many to read (the first time): all at once; a few: one by one.
        if stale.count > 64 || known.isEmpty {
            let all = try PatientRepository.all(db)
            kept.withLock { table in table = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) }) }
            return all
        }
        var fresh: [Int64: PatientRecord] = [:]
        for s in stale { if let p = try PatientRepository.load(db, id: s.id) { fresh[p.id] = p } }
        kept.withLock { table in for (id, p) in fresh { table[id] = p } }
        return revisions.compactMap { fresh[$0.id] ?? known[$0.id] }
    }
}
