import CCurl
import CCurlShims

/// How a client's settings become libcurl options on one easy handle: shared by ``HTTPClient``
/// (one blocking transfer per thread) and ``MultiplexedHTTPClient`` (many on one multi handle).
extension HTTPClientConfiguration {
    func policy(for request: HTTPClientRequest) -> CurlTransportPolicy {
        CurlTransportPolicy(protocols: .web, caFile: caFile, proxy: proxy, timeout: request.timeout ?? timeout,
                            connectTimeout: request.connectTimeout ?? connectTimeout)
    }

    /// The request's header fields, then the defaults it did not set itself.
    func headerList(for request: HTTPClientRequest) throws(CurlFailure) -> CurlHeaderList {
        let list = try CurlHeaderList(request.headers)
        // libcurl sends "Expect: 100-continue" before larger bodies and waits up to a second
        // for the interim answer; "Expect:" with no value removes it (CURLOPT_HTTPHEADER).
        if !request.headers.contains("Expect") { try list.append("Expect:") }
        // With CURLOPT_POSTFIELDS libcurl labels any body application/x-www-form-urlencoded;
        // an unlabelled body should go out unlabelled rather than mislabelled.
        if request.body != nil || request.bodyFile != nil || request.method.alwaysHasBody, !request.headers.contains("Content-Type") {
            try list.append("Content-Type:")
        }
        return list
    }

    /// Points the handle at the request and at `state`'s callbacks; `headers`, `resolve` and
    /// `state` must outlive the transfer.
    func configure(
        _ handle: CurlEasyHandle, for request: HTTPClientRequest, headers: CurlHeaderList, resolve: CurlResolveList,
        state: TransferState
    ) throws(CurlFailure) {
        // Unretained: `state` outlives the transfer (the caller holds it across perform).
        let context = Unmanaged.passUnretained(state).toOpaque()
        try handle.set(CURLOPT_URL, request.url)
        try handle.set(CURLOPT_USERAGENT, userAgent)
        try handle.set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(headers.pointer))
        try handle.set(CURLOPT_WRITEFUNCTION, callback: CurlCallbacks.body)
        try handle.set(CURLOPT_WRITEDATA, pointer: context)
        try handle.set(CURLOPT_HEADERFUNCTION, callback: CurlCallbacks.header)
        try handle.set(CURLOPT_HEADERDATA, pointer: context)
        if let list = resolve.pointer { try handle.set(CURLOPT_RESOLVE, pointer: UnsafeMutableRawPointer(list)) }
        if http2 { try handle.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)) }
        if state.cancellation != nil {
            // The progress callback only runs when CURLOPT_NOPROGRESS is 0.
            try handle.setProgressCallback(CurlCallbacks.progress)
            try handle.set(CURLOPT_XFERINFODATA, pointer: context)
            try handle.set(CURLOPT_NOPROGRESS, false)
        }
        try configureMethod(handle, request.method, hasBody: request.body != nil || request.bodyFile != nil)
        try configureRedirects(handle, url: request.url)
        if maxResponseBytes > 0, request.method != .head {
            // Refuses a response whose Content-Length is already too large before any body
            // byte arrives; the write callback enforces the cap for the rest (chunked,
            // close-delimited, decompressed). 0 would mean "no limit", hence the guard.
            try handle.set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(maxResponseBytes))
        }
        if acceptCompressedResponses {
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
        guard followRedirects else {
            // The default, made explicit: a 3xx is the response (webhooks count it as failure).
            try handle.set(CURLOPT_FOLLOWLOCATION, false)
            return
        }
        try handle.set(CURLOPT_FOLLOWLOCATION, true)
        try handle.set(CURLOPT_MAXREDIRS, max(0, maxRedirects))
        // Never downgrade: an https request may only be redirected to https.
        let isHTTPS = url.utf8.prefix(8).map { $0 | 0x20 }.elementsEqual("https://".utf8)
        try handle.set(CURLOPT_REDIR_PROTOCOLS_STR, isHTTPS ? "https" : "http,https")
    }

    /// Replaces libcurl's generic report of a callback abort (CURLE_WRITE_ERROR,
    /// CURLE_ABORTED_BY_CALLBACK) with the reason the client aborted.
    func explain(_ failure: CurlFailure, state: TransferState) -> CurlFailure {
        if state.bodyLimitExceeded || failure.code == CURLE_FILESIZE_EXCEEDED {
            return CurlFailure(kind: .responseTooLarge, code: failure.code,
                               detail: "the response body exceeds the limit of \(maxResponseBytes) bytes")
        }
        if state.headerLimitExceeded {
            return CurlFailure(kind: .responseTooLarge, code: failure.code,
                               detail: "the response headers exceed the limit of \(maxResponseHeaderBytes) bytes")
        }
        if state.abortedByCancellation { return HTTPClient.cancelledFailure }
        return failure
    }
}
