import Foundation
import Synchronization

/// Keeps every request to REDCap under a per-minute cap (default 120, a fifth of REDCap's
/// default per-IP ban threshold of 600/minute: a ban is permanent, so the cap is not optional).
/// A sliding 60-second window: a request waits until fewer than `perMinute` were sent in the
/// last 60 seconds.
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

    /// Blocks until a request may go out, and counts it.
    func acquire() {
        while true {
            let t = now()
            let wait: Double? = sent.withLock { window in
                window.removeAll { $0 <= t - 60 }
                if window.count < perMinute {
                    window.append(t)
                    return nil
                }
                return window[0] + 60 - t
            }
            guard let wait else { return }
            sleep(min(max(wait, 0.001), 1))
        }
    }

    /// Requests sent in the last 60 seconds.
    var recent: Int {
        let t = now()
        return sent.withLock { $0.filter { $0 > t - 60 }.count }
    }
}
