import Crypto
import HTJSON
import HyponaTrackCore
import SQLite

/// A chain head noted outside the database, written `SEQ:HEX` (the row's `seq` and `hash`).
/// Rewriting any row at or before `seq` — even by someone holding the key, who can re-hash a
/// consistent chain — changes the hash of row `seq`, and cutting rows off the end removes it:
/// `audit verify --checkpoint SEQ:HEX` catches both.
public struct AuditCheckpoint: Sendable, Equatable, CustomStringConvertible {
    public let seq: Int64
    /// 64 lower-case hex digits.
    public let hash: String

    public init(seq: Int64, hash: String) {
        self.seq = seq
        self.hash = hash
    }

    /// `SEQ:HEX`: a `seq` ≥ 1 (1–18 decimal digits, no leading zero), a colon, 64 hex digits
    /// (either case); nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...18).contains(parts[0].utf8.count), parts[0].first != "0",
              parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seq = Int64(parts[0]),
              parts[1].utf8.count == 64, Crypto.bytes(hex: String(parts[1])) != nil
        else { return nil }
        self.init(seq: seq, hash: parts[1].lowercased())
    }

    public var description: String { "\(seq):\(hash)" }
}

/// Sends the chain head out of the machine: appends an `audit.checkpoint` row and queues an
/// `audit.checkpoint` event `{"seq", "hash", "checkpoint": "SEQ:HEX", "reason"}` to the hooks
/// that subscribe to it, in the caller's write transaction. The checkpoint is that row itself,
/// so the record of the checkpoint is covered by it. Once a day from the scheduler (the first
/// tick of each day in the study time zone) and on demand (`POST /v1/audit/checkpoints`).
struct AuditCheckpoints: Sendable {
    enum Reason: String, Sendable {
        case daily
        case requested
    }

    /// The hooks that subscribe to `audit.checkpoint`.
    let subscribers: [String]
    /// The study time zone: its local date decides "once a day".
    let zone: ZoneRules

    init(hooks: [HookConfiguration], zone: ZoneRules) {
        subscribers = HookOutbox.subscribers(hooks, type: .auditCheckpoint)
        self.zone = zone
    }

    /// The daily mark in `scheduler_daily_marks`.
    static let dailyMark = "audit.checkpoint"

    /// Appends the checkpoint row and queues its event; returns the checkpoint.
    func checkpoint(_ db: Connection, at ms: Int64, actor: String, reason: Reason) throws -> AuditCheckpoint {
        let entry = try AuditLog.append(db, at: ms, actor: actor, action: .auditCheckpoint, subject: nil,
                                        details: AuditDetails.Checkpoint(reason: reason.rawValue, hooks: subscribers))
        let checkpoint = AuditCheckpoint(seq: entry.seq, hash: entry.hash)
        try HookOutbox.enqueue(db, type: .auditCheckpoint,
                               data: HookEventData.AuditCheckpoint(seq: entry.seq, hash: entry.hash, checkpoint: checkpoint.description,
                                                                   reason: reason.rawValue),
                               hooks: subscribers, at: ms)
        return checkpoint
    }

    /// The day's checkpoint if none was made yet for today (study time zone), else nil. The
    /// day's mark is recorded in the same transaction, so a restart neither repeats nor skips it.
    func dailyIfDue(_ db: Connection, now: Double) throws -> AuditCheckpoint? {
        let ms = epochMilliseconds(now)
        let today = zone.localDate(atEpochSeconds: now)
        guard try SchedulerRepository.markDaily(db, date: today, mark: Self.dailyMark, at: ms) else { return nil }
        return try checkpoint(db, at: ms, actor: "system", reason: .daily)
    }
}
