import Crypto
import Synchronization

/// A sign-in on its way through the provider: what the start bound to the browser's
/// pre-session cookie. Only the cookie's hash is a key; `state` is kept hashed too.
struct PendingAuthorization: Sendable {
    var stateHash: [UInt8]
    var nonce: String
    var verifier: String
    var next: String
    var expiresAt: Int64
}

/// The pre-sessions, in memory: bounded (oldest dropped first), 10 minutes each, single use
/// (taken out on the first callback whatever it brings, so a replayed `state` finds nothing),
/// forgotten on restart (the member starts again).
final class PendingAuthorizations: Sendable {
    static let lifetimeMs: Int64 = 10 * 60 * 1000
    static let capacity = 4096
    private let table = Mutex([String: PendingAuthorization]())

    func insert(cookie: String, _ pending: PendingAuthorization, nowMs: Int64) {
        table.withLock { t in
            t = t.filter { $0.value.expiresAt > nowMs }
            if t.count >= Self.capacity, let oldest = t.min(by: { $0.value.expiresAt < $1.value.expiresAt }) { t[oldest.key] = nil }
            t[Self.hash(cookie)] = pending
        }
    }

    /// The pre-session of `cookie` when `state` is the one it was started with; removed either way.
    func take(cookie: String, state: String, nowMs: Int64) -> PendingAuthorization? {
        guard let pending = table.withLock({ t in t.removeValue(forKey: Self.hash(cookie)) }), pending.expiresAt > nowMs,
              Crypto.constantTimeEquals(pending.stateHash, Crypto.sha256(Array(state.utf8))) else { return nil }
        return pending
    }

    static func hash(_ value: String) -> String { Crypto.hex(Crypto.sha256(Array(value.utf8))) }
}
