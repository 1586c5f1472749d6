import CCurl
import CCurlShims

/// The project's HTTP(S) client over libcurl: the daemon's CLI, the REDCap sync and webhooks
/// send through it.
///
/// ```swift
/// let client = HTTPClient(configuration: .init(caFile: "/etc/hyponatrack/redcap-ca.pem"))
/// let response = try client.send(.formURLEncoded(url: redcapURL, fields: fields))
/// guard response.status == 200 else { … }   // 4xx/5xx are responses, not errors
/// ```
///
/// `send(_:)` blocks the calling thread and may be called from many threads at once; actors
/// use the `async` overload, which runs the transfer on a thread outside Swift's cooperative
/// pool. Each transfer gets its own libcurl easy handle ("one
/// easy handle per thread at a time"), taken from a small pool so that connections and TLS
/// sessions are reused.
///
/// Always: TLS peer and host verification, TLS ≥ 1.2, `http`/`https` only, no proxy unless
/// configured (environment variables are ignored), a timeout, a response size cap, no
/// redirects unless configured. Nothing is logged; errors carry no header value, body or
/// URL query.
public final class HTTPClient: Sendable {
    /// The settings every request uses.
    public let configuration: HTTPClientConfiguration
    private let handles: CurlEasyHandlePool

    /// A client; cheap, but share one per destination to reuse connections.
    /// Initialises libcurl (``CurlRuntime/initialize()``) if nobody did yet.
    public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
        CurlRuntime.initialize()
        self.configuration = configuration
        self.handles = CurlEasyHandlePool(maxIdle: configuration.maxIdleHandles)
    }

    /// Sends `request` and waits for the complete response, blocking the calling thread.
    ///
    /// - Returns: The response, whatever its status (3xx, 4xx and 5xx included).
    /// - Throws: ``HTTPClientError`` when no complete response arrived: the request was
    ///   invalid, the host unreachable, TLS failed, the time limit passed, or the response
    ///   was larger than ``HTTPClientConfiguration/maxResponseBytes``.
    public func send(_ request: HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse {
        try send(request, cancellation: nil)
    }

    /// The blocking transfer, optionally abortable through `cancellation`.
    func send(_ request: HTTPClientRequest, cancellation: CancellationFlag?) throws(HTTPClientError) -> HTTPClientResponse {
        let redaction = URLRedaction(url: request.url, headerValues: request.headers.map(\.value))
        do {
            return try transfer(request, cancellation: cancellation)
        } catch {
            throw HTTPClientError(kind: error.kind, curlCode: error.code.map { Int($0.rawValue) },
                                  detail: redaction.scrub(error.detail), method: request.method.rawValue,
                                  redactedURL: redaction.redactedURL)
        }
    }

    private func transfer(_ request: HTTPClientRequest, cancellation: CancellationFlag?) throws(CurlFailure) -> HTTPClientResponse {
        if let code = CurlRuntime.initializationFailure {
            throw CurlFailure(code: code, detail: "curl_global_init failed: \(CurlFailure.text(of: code))")
        }
        try HTTPRequestValidation.validate(request)
        if cancellation?.isCancelled == true { throw Self.cancelledFailure }

        let headerList = try CurlHeaderList(request.headers)
        try addDefaultHeaders(to: headerList, for: request)
        let state = TransferState(maxBodyBytes: configuration.maxResponseBytes,
                                  maxHeaderBytes: configuration.maxResponseHeaderBytes,
                                  cancellation: cancellation)
        guard let handle = handles.checkOut() else {
            throw CurlFailure(kind: .other, detail: "curl_easy_init failed (out of memory)")
        }
        defer { handles.checkIn(handle) }

        try policy(for: request).apply(to: handle)
        try configureHTTP(handle, for: request, headers: headerList, state: state)
        let failure: CurlFailure?
        if let path = request.bodyFile {
            guard let upload = FileUpload(path: path) else { throw CurlFailure(kind: .other, detail: "cannot read \(path)") }
            failure = withExtendedLifetime((state, headerList, upload)) { performWithFile(handle, upload) }
        } else {
            failure = withExtendedLifetime((state, headerList)) {
                performWithBody(handle, request.body, sendsBody: request.body != nil || request.method.alwaysHasBody)
            }
        }
        if let failure { throw explain(failure, state: state) }

        let status = handle.longInfo(CURLINFO_RESPONSE_CODE) ?? 0
        let seconds = handle.doubleInfo(CURLINFO_TOTAL_TIME) ?? 0
        return HTTPClientResponse(status: status, headers: HTTPHeaders(state.headers),
                                  body: state.body, totalTime: .seconds(seconds))
    }

    // MARK: - Setup

    private func policy(for request: HTTPClientRequest) -> CurlTransportPolicy {
        CurlTransportPolicy(protocols: .web, caFile: configuration.caFile, proxy: configuration.proxy,
                            timeout: request.timeout ?? configuration.timeout,
                            connectTimeout: request.connectTimeout ?? configuration.connectTimeout)
    }

    private func addDefaultHeaders(to list: CurlHeaderList, for request: HTTPClientRequest) throws(CurlFailure) {
        // libcurl sends "Expect: 100-continue" before larger bodies and waits up to a second
        // for the interim answer; "Expect:" with no value removes it (CURLOPT_HTTPHEADER).
        if !request.headers.contains("Expect") { try list.append("Expect:") }
        // With CURLOPT_POSTFIELDS libcurl labels any body application/x-www-form-urlencoded;
        // an unlabelled body should go out unlabelled rather than mislabelled.
        if request.body != nil || request.bodyFile != nil || request.method.alwaysHasBody, !request.headers.contains("Content-Type") {
            try list.append("Content-Type:")
        }
    }

    private func configureHTTP(
        _ handle: CurlEasyHandle, for request: HTTPClientRequest, headers: CurlHeaderList, state: TransferState
    ) throws(CurlFailure) {
        // Unretained: `state` outlives the transfer (the caller holds it across perform).
        let context = Unmanaged.passUnretained(state).toOpaque()
        try handle.set(CURLOPT_URL, request.url)
        try handle.set(CURLOPT_USERAGENT, configuration.userAgent)
        try handle.set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(headers.pointer))
        try handle.set(CURLOPT_WRITEFUNCTION, callback: CurlCallbacks.body)
        try handle.set(CURLOPT_WRITEDATA, pointer: context)
        try handle.set(CURLOPT_HEADERFUNCTION, callback: CurlCallbacks.header)
        try handle.set(CURLOPT_HEADERDATA, pointer: context)
        if configuration.http2 { try handle.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)) }
        if state.cancellation != nil {
            // The progress callback only runs when CURLOPT_NOPROGRESS is 0.
            try handle.setProgressCallback(CurlCallbacks.progress)
            try handle.set(CURLOPT_XFERINFODATA, pointer: context)
            try handle.set(CURLOPT_NOPROGRESS, false)
        }
        try configureMethod(handle, request.method, hasBody: request.body != nil || request.bodyFile != nil)
        try configureRedirects(handle, url: request.url)
        if configuration.maxResponseBytes > 0, request.method != .head {
            // Refuses a response whose Content-Length is already too large before any body
            // byte arrives; the write callback enforces the cap for the rest (chunked,
            // close-delimited, decompressed). 0 would mean "no limit", hence the guard.
            try handle.set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(configuration.maxResponseBytes))
        }
        if configuration.acceptCompressedResponses {
            // "" = "all built-in supported encodings" (https://curl.se/libcurl/c/CURLOPT_ACCEPT_ENCODING.html).
            try handle.set(CURLOPT_ACCEPT_ENCODING, "")
        }
    }

    /// The method: GET and HEAD have their own options; a body always goes through
    /// CURLOPT_POSTFIELDS (set just before the transfer), and CURLOPT_CUSTOMREQUEST renames
    /// the request line for PUT, PATCH and DELETE — "you don't actually change how libcurl
    /// behaves … it will only change the actual string sent in the request"
    /// (https://curl.se/libcurl/c/CURLOPT_CUSTOMREQUEST.html).
    private func configureMethod(_ handle: CurlEasyHandle, _ method: HTTPClientRequest.Method, hasBody: Bool) throws(CurlFailure) {
        switch method {
        case .get:
            try handle.set(CURLOPT_HTTPGET, true)
        case .head:
            try handle.set(CURLOPT_NOBODY, true)
        case .post, .put, .patch:
            try handle.set(CURLOPT_POST, true)
        case .delete:
            try handle.set(hasBody ? CURLOPT_POST : CURLOPT_HTTPGET, true)
        }
        if method != .get, method != .head, method != .post {
            try handle.set(CURLOPT_CUSTOMREQUEST, method.rawValue)
        }
    }

    private func configureRedirects(_ handle: CurlEasyHandle, url: String) throws(CurlFailure) {
        guard configuration.followRedirects else {
            // The default, made explicit: a 3xx is the response (webhooks count it as failure).
            try handle.set(CURLOPT_FOLLOWLOCATION, false)
            return
        }
        try handle.set(CURLOPT_FOLLOWLOCATION, true)
        try handle.set(CURLOPT_MAXREDIRS, max(0, configuration.maxRedirects))
        // Never downgrade: an https request may only be redirected to https.
        let isHTTPS = url.utf8.prefix(8).map { $0 | 0x20 }.elementsEqual("https://".utf8)
        try handle.set(CURLOPT_REDIR_PROTOCOLS_STR, isHTTPS ? "https" : "http,https")
    }

    // MARK: - Transfer

    /// Points CURLOPT_POSTFIELDS at the body for exactly the duration of the transfer:
    /// libcurl "does not copy the data", so it must stay valid until `curl_easy_perform`
    /// returns (https://curl.se/libcurl/c/CURLOPT_POSTFIELDS.html). The size is set first so
    /// binary bodies with NUL bytes go out whole.
    private func performWithBody(_ handle: CurlEasyHandle, _ body: [UInt8]?, sendsBody: Bool) -> CurlFailure? {
        guard sendsBody else { return handle.perform() }
        let bytes = body ?? []
        // An empty array may have no storage; libcurl needs a valid pointer even for 0 bytes.
        let storage = bytes.isEmpty ? [0] : bytes
        return storage.withUnsafeBytes { buffer -> CurlFailure? in
            do throws(CurlFailure) {
                try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(bytes.count))
                try handle.set(CURLOPT_POSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: buffer.baseAddress))
            } catch {
                return error
            }
            return handle.perform()
        }
    }

    /// A POST whose body libcurl reads from the file as it sends: its size up front
    /// (CURLOPT_POSTFIELDSIZE_LARGE), no CURLOPT_POSTFIELDS, so "libcurl will instead use the read
    /// callback" (https://curl.se/libcurl/c/CURLOPT_POST.html).
    private func performWithFile(_ handle: CurlEasyHandle, _ upload: FileUpload) -> CurlFailure? {
        do throws(CurlFailure) {
            try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: upload.size)
            try handle.set(CURLOPT_READFUNCTION, callback: FileUpload.read)
            try handle.set(CURLOPT_READDATA, pointer: Unmanaged.passUnretained(upload).toOpaque())
        } catch {
            return error
        }
        return handle.perform()
    }

    /// Replaces libcurl's generic report of a callback abort (CURLE_WRITE_ERROR,
    /// CURLE_ABORTED_BY_CALLBACK) with the reason the client aborted.
    private func explain(_ failure: CurlFailure, state: TransferState) -> CurlFailure {
        if state.bodyLimitExceeded || failure.code == CURLE_FILESIZE_EXCEEDED {
            return CurlFailure(kind: .responseTooLarge, code: failure.code,
                               detail: "the response body exceeds the limit of \(configuration.maxResponseBytes) bytes")
        }
        if state.headerLimitExceeded {
            return CurlFailure(kind: .responseTooLarge, code: failure.code,
                               detail: "the response headers exceed the limit of \(configuration.maxResponseHeaderBytes) bytes")
        }
        if state.abortedByCancellation { return Self.cancelledFailure }
        return failure
    }

    private static var cancelledFailure: CurlFailure {
        CurlFailure(kind: .cancelled, detail: "the awaiting task was cancelled")
    }
}
