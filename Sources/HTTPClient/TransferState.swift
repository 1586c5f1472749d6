import CCurl

/// What libcurl's callbacks collect during one transfer: the response headers and body,
/// and whether a limit or a cancellation stopped it.
///
/// Used on the transfer's thread only (libcurl calls the callbacks from inside
/// `curl_easy_perform`); passed to C as an unretained pointer because it outlives the call.
final class TransferState {
    let maxBodyBytes: Int
    let maxHeaderBytes: Int
    let cancellation: CancellationFlag?

    private(set) var body: [UInt8] = []
    /// Header fields of the latest response only: libcurl also passes the headers of 1xx
    /// interim responses and of followed redirects.
    private(set) var headers: [HTTPHeaders.Field] = []
    private var headerBytes = 0

    /// Set when the body would have passed `maxBodyBytes`.
    private(set) var bodyLimitExceeded = false
    /// Set when the header section would have passed `maxHeaderBytes`.
    private(set) var headerLimitExceeded = false
    /// Set when the progress callback saw the cancellation flag.
    private(set) var abortedByCancellation = false

    init(maxBodyBytes: Int, maxHeaderBytes: Int, cancellation: CancellationFlag?) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.cancellation = cancellation
    }

    /// Appends body bytes; false (abort) if they would pass the limit.
    func appendBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count <= maxBodyBytes - body.count else {
            bodyLimitExceeded = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Takes one complete header line ("Name: value\r\n", a status line, or the blank
    /// line); false (abort) if the header section grows past its limit.
    func appendHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // Trim the line ending as bytes: in Swift "\r\n" is a single Character, so a
        // character-wise check for "\r" would never match it.
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0D || bytes[end - 1] == 0x0A { end -= 1 }
        let line = Substring(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self))
        if line.hasPrefix("HTTP/") {
            // A new response starts (after a 100 Continue or a followed redirect).
            headers.removeAll()
            headerBytes = 0
            body.removeAll()
        }
        headerBytes += bytes.count
        guard headerBytes <= maxHeaderBytes else {
            headerLimitExceeded = true
            return false
        }
        if line.isEmpty || line.hasPrefix("HTTP/") { return true }
        if let first = line.first, first == " " || first == "\t", !headers.isEmpty {
            // Obsolete line folding (RFC 9112 §5.2): a continuation of the previous value.
            headers[headers.count - 1].value += " " + Self.trimmed(line)
            return true
        }
        guard let colon = line.firstIndex(of: ":") else { return true }
        headers.append((name: String(line[..<colon]),
                        value: Self.trimmed(line[line.index(after: colon)...])))
        return true
    }

    /// Whether the transfer should stop because its task was cancelled.
    func shouldAbort() -> Bool {
        guard let cancellation, cancellation.isCancelled else { return false }
        abortedByCancellation = true
        return true
    }

    /// The response the finished transfer on `handle` received.
    func response(of handle: CurlEasyHandle) -> HTTPClientResponse {
        let status = handle.longInfo(CURLINFO_RESPONSE_CODE) ?? 0
        let seconds = handle.doubleInfo(CURLINFO_TOTAL_TIME) ?? 0
        return HTTPClientResponse(status: status, headers: HTTPHeaders(headers), body: body, totalTime: .seconds(seconds))
    }

    private static func trimmed(_ text: Substring) -> String {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
