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
        do {
            return try transfer(request, cancellation: cancellation)
        } catch {
            throw HTTPClientError(error, request: request)
        }
    }

    private func transfer(_ request: HTTPClientRequest, cancellation: CancellationFlag?) throws(CurlFailure) -> HTTPClientResponse {
        try CurlRuntime.checkInitialized()
        try HTTPRequestValidation.validate(request)
        if cancellation?.isCancelled == true { throw Self.cancelledFailure }

        let headerList = try configuration.headerList(for: request)
        let state = TransferState(maxBodyBytes: configuration.maxResponseBytes,
                                  maxHeaderBytes: configuration.maxResponseHeaderBytes,
                                  cancellation: cancellation)
        guard let handle = handles.checkOut() else {
            throw CurlFailure(kind: .other, detail: "curl_easy_init failed (out of memory)")
        }
        defer { handles.checkIn(handle) }

        let resolve = try CurlResolveList(request.resolvedHost, url: request.url)
        try configuration.policy(for: request).apply(to: handle)
        try configuration.configure(handle, for: request, headers: headerList, resolve: resolve, state: state)
        let failure: CurlFailure?
        if let path = request.bodyFile {
            guard let upload = FileUpload(path: path) else { throw CurlFailure(kind: .other, detail: "cannot read \(path)") }
            failure = withExtendedLifetime((state, headerList, resolve, upload)) { performWithFile(handle, upload) }
        } else {
            failure = withExtendedLifetime((state, headerList, resolve)) {
                performWithBody(handle, request.body, sendsBody: request.body != nil || request.method.alwaysHasBody)
            }
        }
        if let failure { throw configuration.explain(failure, state: state) }

        return state.response(of: handle)
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

    static var cancelledFailure: CurlFailure {
        CurlFailure(kind: .cancelled, detail: "the awaiting task was cancelled")
    }
}
