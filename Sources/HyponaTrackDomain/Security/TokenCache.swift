import SQLite
import Synchronization

/// Token lookups that already succeeded, so most requests authenticate without a database read
/// (the lookup was a read transaction of its own on every request).
///
/// Correctness rests on one generation counter:
/// - Whatever can end a token's validity — staff revoke and rotate, patient reissue and
///   withdrawal, a changed profile (it moves the patient token's lifetime) — calls
///   `credentialsChanged(_:)` inside its write transaction (the repositories do, so no write
///   path can forget it), which moves the generation on at once; `Database.write` moves it on
///   again after the COMMIT of any write during which it moved.
/// - `authenticate` notes the generation *before* its read transaction begins and stores the
///   entry under that generation; an entry counts only while the generation is unchanged.
///
/// So an entry read from a snapshot older than a revocation's COMMIT carries a generation that
/// the after-COMMIT move has left behind, and a lookup that noted the generation after that
/// move reads a snapshot that already holds the revocation: a revoked token is refused from the
/// first request after the revoking request was answered, as without the cache.
///
/// A patient entry also carries the instant until which its token cannot have outlived the
/// monitoring period (the shortest window, `PatientTokenLifetime.certainlyValidUntil`) and the
/// rules version it was computed with; past it, or under other rules, the database decides.
public final class TokenCache: Sendable {
    struct Entry: Sendable {
        var principal: Principal
        var generation: UInt64
        /// Epoch seconds; nil for staff tokens (no lifetime).
        var validUntil: Double?
        var rulesVersion: String?
    }

    private let generation = Atomic<UInt64>(0)
    private let entries = Mutex<[String: Entry]>([:])
    /// Bounded: past this many tokens the cache starts over (one lookup each refills it).
    let capacity: Int

    public init(capacity: Int = 4096) { self.capacity = capacity }

    var currentGeneration: UInt64 { generation.load(ordering: .acquiring) }

    /// Inside a write transaction that may end a token's validity; see the type's comment.
    static func credentialsChanged(_ db: Connection) {
        db.attachment(TokenCache.self)?.invalidate()
    }

    /// After the COMMIT of a write that began at `generation`: if credentials changed meanwhile
    /// (its own job's or another's), move on once more, so a lookup whose snapshot began before
    /// the COMMIT does not count afterwards.
    func committed(since generation: UInt64) {
        if currentGeneration != generation { invalidate() }
    }

    /// Every entry stops counting.
    func invalidate() {
        generation.add(1, ordering: .acquiringAndReleasing)
    }

    /// The cached principal for a token hash, if its entry still counts at `now`.
    func principal(forHash hash: String, now: Double, rulesVersion: String?) -> Principal? {
        guard let entry = entries.withLock({ $0[hash] }), entry.generation == currentGeneration else { return nil }
        if let until = entry.validUntil {
            guard now < until, entry.rulesVersion == rulesVersion else { return nil }
        }
        return entry.principal
    }

    func store(_ entry: Entry, forHash hash: String) {
        entries.withLock { $0.set(entry, forKey: hash, capacity: capacity) }
    }
}
