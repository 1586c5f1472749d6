import Foundation
import Synchronization

/// Keeps every request to REDCap under a per-minute cap (default 120, a fifth of REDCap's
/// default per-IP ban threshold of 600/minute: a ban is permanent, so the cap is not optional).
/// A sliding 60-second window: a request waits until fewer than `perMinute` were sent (counted
/// until they were answered) in the last 60 seconds.
///
/// The window is measured on the monotonic clock (a stepped wall clock neither opens nor holds
/// it). With a `journal` it also survives restarts: each request is written down before it goes
/// out and again when answered, and a new pacer starts from the requests of the last minute, so
/// a daemon in a crash loop (`Restart=on-failure`) cannot send a minute's cap after every start.
final class RequestPacer: Sendable {
    let perMinute: Int
    /// One request: counted until `at`; its journal row; whether its answer came (a stamp may
    /// equal an earlier request's moved one, and must not be taken for it).
    private struct Sent { var at: Double; var row: Int64?; var answered = false }
    private let sent = Mutex<[Sent]>([])
    private let now: @Sendable () -> Double
    private let sleep: @Sendable (Double) -> Void
    private let journal: (any RequestJournal)?

    /// - Parameter now: monotonic seconds (default: `CLOCK_MONOTONIC`).
    init(perMinute: Int, journal: (any RequestJournal)? = nil,
         now: @escaping @Sendable () -> Double = { Double(MonotonicDeadline.now.nanoseconds) / 1e9 },
         sleep: @escaping @Sendable (Double) -> Void = { usleep(UInt32(max(0, $0) * 1_000_000)) }) {
        self.perMinute = perMinute
        self.now = now
        self.sleep = sleep
        self.journal = journal
    }

    /// Starts the window from the requests of the last minute in the journal (those a previous
    /// process sent); at start, before the first request. Returns how many there were.
    @discardableResult
    func resume() throws -> Int {
        guard let journal else { return 0 }
        // Ages, not instants: the journal's wall-clock times become points on this clock.
        let ages = try journal.recentAges()
        let t = now()
        sent.withLock { window in
            window = (ages.map { Sent(at: t - $0, row: nil, answered: true) } + window).sorted { $0.at < $1.at }
        }
        return ages.count
    }

    /// Blocks until a request may go out, and counts it; returns its stamp for `finished(_:)`.
    @discardableResult
    func acquire() -> Double {
        while true {
            let t = now()
            let wait: Double? = sent.withLock { window in
                window.removeAll { $0.at <= t - 60 }
                if window.count < perMinute {
                    window.append(Sent(at: t, row: nil))
                    return nil
                }
                return window.map(\.at).min()! + 60 - t
            }
            guard let wait else {
                // Written before the request goes out: a crash from here on still counts it.
                if let row = journal?.started() {
                    sent.withLock { window in
                        if let i = window.lastIndex(where: { $0.at == t && $0.row == nil && !$0.answered }) { window[i].row = row }
                    }
                }
                return t
            }
            sleep(min(max(wait, 0.001), 1))
        }
    }

    /// Moves a request's stamp to the time it finished. REDCap counts a request when it arrives,
    /// somewhere between our stamp and the answer; counting from the answer keeps any 60 s of
    /// arrivals within the cap even when an earlier request took longer to arrive (a TLS
    /// handshake, a slow network) than a later one.
    func finished(_ stamp: Double) {
        let t = now()
        let row: Int64? = sent.withLock { window in
            guard let i = window.firstIndex(where: { $0.at == stamp && !$0.answered }) else { return nil }
            window[i].at = max(t, stamp)
            window[i].answered = true
            return window[i].row
        }
        if let row { journal?.answered(row) }
    }

    /// Waits (in steps of at most 0.2 s) until a request could go out now, counting nothing;
    /// false when `cancelled` turned true first. The sync worker waits here rather than inside
    /// `acquire()`, so a stop is not held up by a full window (up to a minute).
    func waitForSlot(unless cancelled: () -> Bool) -> Bool {
        while !cancelled() {
            let t = now()
            let wait: Double? = sent.withLock { window in
                window.removeAll { $0.at <= t - 60 }
                return window.count < perMinute ? nil : window.map(\.at).min()! + 60 - t
            }
            guard let wait else { return true }
            sleep(min(max(wait, 0.001), 0.2))
        }
        return false
    }

    /// Requests sent in the last 60 seconds.
    var recent: Int {
        let t = now()
        return sent.withLock { $0.filter { $0.at > t - 60 }.count }
    }
}

/// Where a ``RequestPacer`` writes its requests down (``SyncRequestJournal``: the database).
protocol RequestJournal: Sendable {
    /// How long ago (seconds, 0–60) each request of the last minute was answered, a request the
    /// previous process died waiting for counting as answered now.
    func recentAges() throws -> [Double]
    /// A request goes out now; its row for `answered(_:)`, nil when it could not be written.
    func started() -> Int64?
    /// The request of `row` was answered now.
    func answered(_ row: Int64)
}
