import CCurl
import CCurlShims

/// Sends one e-mail over SMTP with libcurl: the staff e-mail hooks go through it.
///
/// ```swift
/// let smtp = SMTPClient()
/// try smtp.send(url: "smtps://mail.example.org:465", from: "hyponatrack@example.org",
///               to: ["ward7@example.org"], message: rfc5322Bytes,
///               username: "hyponatrack", password: password, caFile: nil, timeout: .seconds(30))
/// ```
///
/// Always: TLS (`smtps://` is TLS from the first byte; `smtp://` must upgrade with STARTTLS
/// before anything else is sent — `CURLOPT_USE_SSL = CURLUSESSL_ALL`, so a server that does not
/// offer STARTTLS is refused, never spoken to in plain text), peer and host verification, TLS ≥
/// 1.2, no proxy, a timeout, `CURLOPT_NOSIGNAL`. Errors carry neither the credentials nor the
/// message text.
///
/// `send` blocks the calling thread for at most about `timeout` and may be called from many
/// threads at once: every call uses its own easy handle ("one easy handle per thread at a time").
public final class SMTPClient: Sendable {
    /// A client; initialises libcurl (``CurlRuntime/initialize()``) if nobody did yet.
    public init() {
        CurlRuntime.initialize()
    }

    /// Sends `message` to `to` in one SMTP transaction and waits for the server's verdict on
    /// the DATA.
    ///
    /// - Parameters:
    ///   - url: `smtps://host:port` (implicit TLS, usually port 465) or `smtp://host:port`
    ///     (STARTTLS is required). A path becomes the EHLO domain (libcurl's rule).
    ///   - from: The envelope sender (`MAIL FROM`), a bare address such as `a@example.org`.
    ///   - to: The envelope recipients (`RCPT TO`), at least one; every one must be accepted.
    ///   - message: The complete RFC 5322 message (header, blank line, body) with CRLF line
    ///     endings. libcurl dot-stuffs lines that start with "." and adds the final
    ///     `CRLF.CRLF` itself (lib/smtp.c, `Curl_smtp_escape_eob`), so pass it unescaped.
    ///   - username: The SMTP AUTH user; nil sends no AUTH. libcurl authenticates only after
    ///     TLS is up and picks the mechanism from the server's EHLO list.
    ///   - password: The SMTP AUTH password.
    ///   - caFile: A PEM file of CAs to trust instead of the system store (a private CA).
    ///   - timeout: The limit for the whole transaction, connection and TLS included.
    /// - Throws: ``HTTPClientError`` with method `SMTP`: invalid URL or address
    ///   (`.invalidURL`, `.invalidRequest`), no connection, TLS failure or no STARTTLS
    ///   (`.tlsFailure`), a refused login (`.other`, CURLcode 67), a refused sender, recipient or
    ///   message (`.sendFailed` / `.other` with the server's reply code), a timeout.
    public func send(
        url: String, from: String, to: [String], message: [UInt8],
        username: String?, password: String?, caFile: String?, timeout: Duration
    ) throws(HTTPClientError) {
        let redaction = URLRedaction(url: url, headerValues: [username, password].compactMap { $0 })
        do {
            try transfer(url: url, from: from, to: to, message: message, username: username, password: password,
                         caFile: caFile, timeout: timeout)
        } catch {
            throw HTTPClientError(kind: error.kind, curlCode: error.code.map { Int($0.rawValue) },
                                  detail: redaction.scrub(error.detail), method: "SMTP",
                                  redactedURL: redaction.redactedURL)
        }
    }

    private func transfer(
        url: String, from: String, to: [String], message: [UInt8],
        username: String?, password: String?, caFile: String?, timeout: Duration
    ) throws(CurlFailure) {
        if let code = CurlRuntime.initializationFailure {
            throw CurlFailure(code: code, detail: "curl_global_init failed: \(CurlFailure.text(of: code))")
        }
        try SMTPValidation.validate(url: url, from: from, to: to, message: message)
        let recipients = try SMTPRecipientList(to)
        let upload = SMTPUpload(message)
        guard let handle = CurlEasyHandle() else {
            throw CurlFailure(kind: .other, detail: "curl_easy_init failed (out of memory)")
        }
        let policy = CurlTransportPolicy(protocols: .mail, caFile: caFile, proxy: nil, timeout: timeout,
                                         connectTimeout: min(timeout, .seconds(15)))
        try policy.apply(to: handle)
        try handle.set(CURLOPT_URL, url)
        // "CURLUSESSL_ALL - Require SSL for all communication or fail with CURLE_USE_SSL_FAILED"
        // (https://curl.se/libcurl/c/CURLOPT_USE_SSL.html): for smtp:// this makes STARTTLS
        // mandatory before EHLO is repeated, AUTH or any envelope is sent.
        try handle.set(CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue))
        // libcurl puts angle brackets around an address that has none (lib/smtp.c).
        try handle.set(CURLOPT_MAIL_FROM, "<\(from)>")
        // "libcurl does not copy the list, it needs to be kept around until after the transfer
        // has completed" (https://curl.se/libcurl/c/CURLOPT_MAIL_RCPT.html).
        try handle.set(CURLOPT_MAIL_RCPT, pointer: UnsafeMutableRawPointer(recipients.pointer))
        // With SMTP, an upload is the mail: "CURLOPT_UPLOAD … and the read callback
        // … to provide the data" (https://curl.se/libcurl/c/smtp-mail.html).
        try handle.set(CURLOPT_UPLOAD, true)
        // The read callback has the write callback's C prototype (curl_read_callback: size_t
        // (char *, size_t, size_t, void *)), so the typed setter serves both.
        try handle.set(CURLOPT_READFUNCTION, callback: SMTPUpload.read)
        try handle.set(CURLOPT_READDATA, pointer: Unmanaged.passUnretained(upload).toOpaque())
        try handle.set(CURLOPT_INFILESIZE_LARGE, offset: Int64(message.count))
        if let username {
            try handle.set(CURLOPT_USERNAME, username)
            try handle.set(CURLOPT_PASSWORD, password ?? "")
        }
        let failure = withExtendedLifetime((recipients, upload)) { handle.perform() }
        if let failure { throw failure }
    }
}
