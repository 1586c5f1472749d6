import Foundation
import Synchronization

/// Keeps every request to REDCap under a per-minute cap (default 120, a fifth of REDCap's
/// default per-IP ban threshold of 600/minute: a ban is permanent, so the cap is not optional).
/// A sliding 60-second window: a request waits until fewer than `perMinute` were sent (counted
/// until they were answered) in the last 60 seconds.
final class RequestPacer: Sendable {
    let perMinute: Int
    private let sent = Mutex<[Double]>([])
    private let now: @Sendable () -> Double
    private let sleep: @Sendable (Double) -> Void

    init(perMinute: Int, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
         sleep: @escaping @Sendable (Double) -> Void = { usleep(UInt32(max(0, $0) * 1_000_000)) }) {
        self.perMinute = perMinute
        self.now = now
        self.sleep = sleep
    }

    /// Blocks until a request may go out, and counts it; returns its stamp for `finished(_:)`.
    @discardableResult
    func acquire() -> Double {
        while true {
            let t = now()
            let wait: Double? = sent.withLock { window in
                window.removeAll { $0 <= t - 60 }
                if window.count < perMinute {
                    window.append(t)
                    return nil
                }
                return window.min()! + 60 - t
            }
            guard let wait else { return t }
            sleep(min(max(wait, 0.001), 1))
        }
    }

    /// Moves a request's stamp to the time it finished. REDCap counts a request when it arrives,
    /// somewhere between our stamp and the answer; counting from the answer keeps any 60 s of
    /// arrivals within the cap even when an earlier request took longer to arrive (a TLS
    /// handshake, a slow network) than a later one.
    func finished(_ stamp: Double) {
        let t = now()
        sent.withLock { window in
            if let i = window.firstIndex(of: stamp) { window[i] = max(t, stamp) }
        }
    }

    /// Waits (in steps of at most 0.2 s) until a request could go out now, counting nothing;
    /// false when `cancelled` turned true first. The sync worker waits here rather than inside
    /// `acquire()`, so a stop is not held up by a full window (up to a minute).
    func waitForSlot(unless cancelled: () -> Bool) -> Bool {
        while !cancelled() {
            let t = now()
            let wait: Double? = sent.withLock { window in
                window.removeAll { $0 <= t - 60 }
                return window.count < perMinute ? nil : window.min()! + 60 - t
            }
            guard let wait else { return true }
            sleep(min(max(wait, 0.001), 0.2))
        }
        return false
    }

    /// Requests sent in the last 60 seconds.
    var recent: Int {
        let t = now()
        return sent.withLock { $0.filter { $0 > t - 60 }.count }
    }
}
