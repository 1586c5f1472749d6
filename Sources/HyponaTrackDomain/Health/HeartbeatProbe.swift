import Synchronization

/// Whether the database takes a durable write, for `/healthz`: at most one heartbeat commit per
/// `interval`, however often it is asked. `/healthz` needs no token, so without this a client
/// asking in a tight loop (the proxy meant to keep it away misconfigured or absent) would put a
/// durable write on the single writer per request, beside the patients' submissions.
///
/// A probe within `interval` of the last commit gets that commit's result. A probe while a
/// commit is under way does not wait for it (it would hold a handler thread for as long as the
/// disk hangs): it gets the last result, or "not writable" once the commit under way has taken
/// longer than `stallLimit` — a write that slow is a stall, whatever finally becomes of it.
final class HeartbeatProbe: Sendable {
    private struct State {
        var last: (writable: Bool, at: ContinuousClock.Instant)?
        var writingSince: ContinuousClock.Instant?
    }

    private enum Decision { case answer(Bool), commit }

    let interval: Duration
    let stallLimit: Duration
    private let beat: @Sendable () -> Bool
    private let state = Mutex(State())

    /// `beat` commits one heartbeat and says whether it worked. The first commit happens here,
    /// so that every later probe has a result to fall back on.
    init(interval: Duration = .seconds(1), stallLimit: Duration = .seconds(5), beat: @escaping @Sendable () -> Bool) {
        self.interval = interval
        self.stallLimit = stallLimit
        self.beat = beat
        let writable = beat()
        state.withLock { $0.last = (writable, .now) }
    }

    func writable(now: ContinuousClock.Instant = .now) -> Bool {
        let decision: Decision = state.withLock { s in
            if let since = s.writingSince {
                return .answer(now - since < stallLimit && s.last?.writable == true)
            }
            if let last = s.last, now - last.at < interval { return .answer(last.writable) }
            s.writingSince = now
            return .commit
        }
        if case .answer(let writable) = decision { return writable }
        let writable = beat()
        state.withLock { s in
            s.last = (writable, .now)
            s.writingSince = nil
        }
        return writable
    }
}
