/// What one delivery attempt achieved, and so what the outbox does next.
public enum DeliveryResult: Sendable, Equatable {
    /// The receiver took the event (HTTP 2xx, command exit 0, SMTP accepted the DATA).
    case delivered
    /// A transient failure (network, timeout, HTTP 5xx/429/3xx/other non-2xx, a command's
    /// non-zero exit or a command that cannot be started, a TLS or login failure an operator
    /// may still fix): try again later,
    /// after `afterSeconds` when the receiver asked for it (`retry-after`), else per schedule.
    case retry(reason: String, afterSeconds: Double?)
    /// The endpoint answered 410 Gone: disable the hook.
    case gone(String)
    /// A configuration that cannot work however often it is tried (a command path that is not
    /// absolute, a URL of a forbidden scheme, an invalid address): dead-letter at once.
    case failed(String)
    /// The daemon is stopping and ended the attempt before it was decided (a command still
    /// running was killed): whether the receiver acted is unknown, so the event is due again
    /// at once, i.e. at the next start.
    case interrupted(String)
}

/// One way of telling staff about an event: a signed webhook, a local command, an e-mail.
///
/// `deliver` blocks the calling thread until the attempt is decided and is bounded by the
/// transport's timeout; it never throws (every outcome is a ``DeliveryResult``) and may be
/// called from several threads at once. Reasons name what failed and never contain secrets,
/// tokens or the message text.
public protocol HookTransport: Sendable {
    /// - Parameters:
    ///   - eventId: The event's stable id (the outbox's; the same on every retry).
    ///   - timestamp: Unix seconds of this attempt.
    ///   - body: The event JSON `{type, id, timestamp, data}`, exactly as queued (a transport
    ///     that looks inside reads it as a `StoredHookEvent`).
    func deliver(eventId: String, timestamp: Int64, body: [UInt8]) -> DeliveryResult

    /// The same, for a worker that may be asked to stop meanwhile: `stopping` turns true when
    /// it is. A transport whose attempt can outlast the worker's stop deadline (a command may
    /// run up to 300 s) ends the attempt then and answers ``DeliveryResult/interrupted(_:)``;
    /// the others are bounded by their 30 s timeout and ignore it (the default).
    func deliver(eventId: String, timestamp: Int64, body: [UInt8],
                 stopping: @escaping @Sendable () -> Bool) -> DeliveryResult
}

extension HookTransport {
    public func deliver(eventId: String, timestamp: Int64, body: [UInt8],
                        stopping: @escaping @Sendable () -> Bool) -> DeliveryResult {
        deliver(eventId: eventId, timestamp: timestamp, body: body)
    }
}
