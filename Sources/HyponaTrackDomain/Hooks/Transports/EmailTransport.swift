import HTTPClient
import HyponaTrackCore

/// Staff e-mail over SMTP with TLS (``SMTPClient``: `smtps://`, or `smtp://` with STARTTLS
/// enforced): one plain-text message per event, worded by ``EmailText``, to every configured
/// recipient in one transaction.
///
/// Accepted by the server = delivered. A refused login, a TLS failure (including a server
/// without STARTTLS), a refused recipient, an unreachable server or a timeout is retried: an
/// operator can fix each within the outbox's 24 hours. A URL or address that can never work is
/// a permanent failure. `deliver` blocks for at most `timeout` (30 s by default).
public struct EmailTransport: HookTransport {
    public let smtpURL: String
    public let from: String
    public let to: [String]
    private let username: String?
    private let password: String?
    private let caFile: String?
    private let timeout: Duration
    private let client: SMTPClient
    /// The rules in force when a message is written (a SIGHUP may have replaced them since start).
    private let rules: @Sendable () -> RuleSet

    /// - Parameters:
    ///   - smtpURL: `smtps://host:465` or `smtp://host:587` (STARTTLS is then required).
    ///   - from: The sender address (envelope and `From:`).
    ///   - to: The recipients (envelope and `To:`).
    ///   - username: SMTP AUTH user, nil for none (from the owner-only credentials file).
    ///   - password: SMTP AUTH password.
    ///   - caFile: A PEM file of CAs to trust instead of the system store.
    ///   - rules: The rules in force, whose facts the text names (`EmailText`).
    public init(smtpURL: String, from: String, to: [String], username: String?, password: String?, caFile: String?,
                timeout: Duration = .seconds(30), rules: @escaping @Sendable () -> RuleSet) {
        self.smtpURL = smtpURL
        self.from = from
        self.to = to
        self.username = username
        self.password = password
        self.caFile = caFile
        self.timeout = timeout
        self.client = SMTPClient()
        self.rules = rules
    }

    public func deliver(eventId: String, timestamp: Int64, body: [UInt8]) -> DeliveryResult {
        let message: [UInt8]
        do {
            message = try makeMessage(eventId: eventId, timestamp: timestamp, body: body)
        } catch {
            return .retry(reason: "could not build the e-mail: \(error)", afterSeconds: nil)
        }
        do {
            try client.send(url: smtpURL, from: from, to: to, message: message, username: username, password: password,
                            caFile: caFile, timeout: timeout)
            return .delivered
        } catch {
            switch error.kind {
            case .invalidURL, .invalidRequest: return .failed(error.description)
            default: return .retry(reason: error.description, afterSeconds: nil)
            }
        }
    }

    /// The RFC 5322 message for the event `body` (as queued), dated `timestamp`.
    func makeMessage(eventId: String, timestamp: Int64, body: [UInt8]) throws -> [UInt8] {
        let event = StoredHookEvent(body: body)
        let text = EmailText.render(event, rules: rules())
        let type = event.type
        let message = EmailMessage(
            from: from, to: to, subject: text.subject, body: text.body, date: timestamp,
            messageId: try EmailMessage.makeMessageId(from: from),
            extraFields: [
                // RFC 3834: keeps vacation responders from answering an alert.
                ("Auto-Submitted", "auto-generated"),
                ("X-HyponaTrack-Event", "\(type) \(eventId)"),
            ])
        return message.bytes
    }
}
