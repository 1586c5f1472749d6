import CCurl
import CCurlShims
import Glibc
import Synchronization

/// Many requests at once to one service over a few HTTP/2 connections, each carrying many
/// streams: one libcurl multi handle (`CURLMOPT_PIPELINING` = `CURLPIPE_MULTIPLEX`,
/// `CURL_HTTP_VERSION_2TLS`, `CURLOPT_PIPEWAIT` so a transfer waits for a stream on an open
/// connection rather than opening another), at most ``maxConnections`` connections.
///
/// ```swift
/// let client = MultiplexedHTTPClient(configuration: .init(caFile: ca), maxConnections: 4)
/// client.send(requests) { index, result in … }   // called as each one finishes
/// ```
///
/// `send(_:completion:)` blocks the calling thread until every request finished; one batch
/// runs at a time (a second caller waits). The connections stay open between batches. The
/// same rules as ``HTTPClient``: TLS verification, `http`/`https` only, no proxy unless
/// configured, a timeout per request (counted from when it enters the multi handle), a
/// response size cap, errors without header values, bodies or URL queries. A request body
/// is copied (`CURLOPT_COPYPOSTFIELDS`); a `bodyFile` is refused.
public final class MultiplexedHTTPClient: Sendable {
    public let configuration: HTTPClientConfiguration
    /// Connections to the service at most (`CURLMOPT_MAX_HOST_CONNECTIONS`).
    public let maxConnections: Int
    /// Streams per connection at most (`CURLMOPT_MAX_CONCURRENT_STREAMS`; the server's
    /// `SETTINGS_MAX_CONCURRENT_STREAMS` may lower it).
    public let maxStreams: Int
    /// The least time between two passes over the transfers (`curl_multi_perform`) while some
    /// are in flight. libcurl 7.88 looks at every transfer of the multi handle on each pass, so
    /// with hundreds of streams a pass per arriving answer costs more than the answers; waiting
    /// a little lets each pass take several (zero: a pass whenever a socket is ready).
    public let performInterval: Duration
    /// Connections to all hosts together at most (`CURLMOPT_MAX_TOTAL_CONNECTIONS`).
    public let maxTotalConnections: Int
    private let multi: Mutex<CurlMultiHandle?>
    private let handles: CurlEasyHandlePool
    private let connects = Atomic<Int>(0)
    /// Whether each server (`host:port`) answered over HTTP/2 (true) or HTTP/1 (false) last;
    /// kept across calls, as the connections are.
    private let multiplexing = Mutex<[String: Bool]>([:])

    /// - Parameter maxTotalConnections: Connections to all hosts together (default
    ///   `maxConnections`: one service); a client for many hosts (Web Push) allows more.
    public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration(), maxConnections: Int = 4,
                maxStreams: Int = 100, maxTotalConnections: Int? = nil, performInterval: Duration = .zero) {
        self.performInterval = performInterval
        CurlRuntime.initialize()
        var configuration = configuration
        configuration.http2 = true
        self.configuration = configuration
        self.maxConnections = max(1, maxConnections)
        self.maxStreams = max(1, maxStreams)
        self.maxTotalConnections = max(self.maxConnections, maxTotalConnections ?? 0)
        multi = Mutex(try? CurlMultiHandle(maxConnections: self.maxConnections, maxTotalConnections: self.maxTotalConnections,
                                           maxStreams: self.maxStreams))
        handles = CurlEasyHandlePool(maxIdle: self.maxConnections * self.maxStreams)
    }

    /// Transfers to one server in flight at once (``ServerAdmission/window(multiplexes:)``):
    /// `maxConnections × maxStreams` once it has answered over HTTP/2, `maxConnections` until then.
    public func window(for server: String) -> Int {
        ServerAdmission(maxConnections: maxConnections, maxStreams: maxStreams, maxTotalConnections: maxTotalConnections)
            .window(multiplexes: multiplexing.withLock { $0[server] } == true)
    }

    /// `host:port` of an `http`/`https` URL (`CurlResolveList.hostAndPort`: lowercased, the
    /// scheme's port when none is written, an IPv6 literal in brackets); a URL it cannot read
    /// is a server of its own.
    public static func server(of url: String) -> String {
        guard let (host, port) = CurlResolveList.hostAndPort(url) else { return url.lowercased() }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Connections opened so far (the sum of each transfer's `CURLINFO_NUM_CONNECTS`).
    public var connectionsOpened: Int { connects.load(ordering: .relaxed) }

    /// Sends every request concurrently and calls `completion` with its index and outcome as
    /// each one finishes, on the calling thread; returns after the last.
    ///
    /// - Parameter completion: The response (any status) or an ``HTTPClientError`` (invalid
    ///   request, connection, TLS, timeout, size cap). Runs inside the transfer loop: other
    ///   transfers wait while it runs, so it should be short.
    public func send(_ requests: [HTTPClientRequest], completion: (Int, Result<HTTPClientResponse, HTTPClientError>) -> Void) {
        var next = 0
        stream(next: { () -> (Int, HTTPClientRequest)? in
            guard next < requests.count else { return nil }
            defer { next += 1 }
            return (next, requests[next])
        }, completion: completion)
    }

    /// Keeps the streams full from a source: whenever fewer than `maxConnections × maxStreams`
    /// transfers are in flight, asks `next` for another request (with the caller's number for
    /// it), and calls `completion` with that number and the outcome as each one finishes — so a
    /// long run of requests never waits for the slowest of a batch before the next ones start.
    /// A request to a server that has as many in flight as its ``window(for:)``, or that would
    /// need a connection beyond `maxTotalConnections`, is held (``ServerAdmission``) until one
    /// finishes; requests to other servers go on meanwhile.
    /// Returns once `next` has nothing (nil) while no transfer is in flight; a nil while
    /// transfers are in flight only means "nothing now": `next` is asked again after each
    /// completion. Both closures run on the calling thread, inside the transfer loop.
    public func stream(next: () -> (Int, HTTPClientRequest)?,
                       completion: (Int, Result<HTTPClientResponse, HTTPClientError>) -> Void) {
        multi.withLock { multi in
            guard let multi else {
                while let (i, r) = next() {
                    completion(i, .failure(HTTPClientError(CurlFailure(kind: .other, detail: "curl_multi_init failed"), request: r)))
                }
                return
            }
            run(next, on: multi, completion: completion)
        }
    }

    /// One transfer in the multi handle, with what must outlive it.
    private final class Transfer {
        let index: Int
        let request: HTTPClientRequest
        /// `host:port` (``server(of:)``).
        let server: String
        let handle: CurlEasyHandle
        let state: TransferState
        let headers: CurlHeaderList
        let resolve: CurlResolveList

        init(index: Int, request: HTTPClientRequest, server: String, handle: CurlEasyHandle, state: TransferState,
             headers: CurlHeaderList, resolve: CurlResolveList) {
            self.index = index
            self.request = request
            self.server = server
            self.handle = handle
            self.state = state
            self.headers = headers
            self.resolve = resolve
        }
    }

    private func run(_ next: () -> (Int, HTTPClientRequest)?, on multi: CurlMultiHandle,
                     completion: (Int, Result<HTTPClientResponse, HTTPClientError>) -> Void) {
        let window = maxConnections * maxStreams
        var active: [UnsafeMutableRawPointer: Transfer] = [:]
        var admission = ServerAdmission(maxConnections: maxConnections, maxStreams: maxStreams,
                                        maxTotalConnections: maxTotalConnections)
        var learned = multiplexing.withLock { $0 }
        let multiplexes = { (server: String) in learned[server] == true }
        func finish(_ t: Transfer, _ result: Result<HTTPClientResponse, CurlFailure>) {
            multi.remove(t.handle)
            connects.add(t.handle.longInfo(CURLINFO_NUM_CONNECTS) ?? 0, ordering: .relaxed)
            admission.finished(t.server)
            if case .success = result, let version = t.handle.longInfo(CURLINFO_HTTP_VERSION), version != 0 {
                let many = version >= Int(CURL_HTTP_VERSION_2_0)
                if learned[t.server] != many {
                    learned[t.server] = many
                    multiplexing.withLock { $0[t.server] = many }
                }
            }
            handles.checkIn(t.handle)
            completion(t.index, result.mapError { HTTPClientError($0, request: t.request) })
        }
        func begin(_ i: Int, _ request: HTTPClientRequest, _ server: String) {
            do throws(CurlFailure) {
                let t = try start(request, index: i, server: server, on: multi)
                active[t.handle.raw] = t
                admission.started(server)
            } catch {
                completion(i, .failure(HTTPClientError(error, request: request)))
            }
        }
        let clock = ContinuousClock()
        var lastPass = clock.now - performInterval
        repeat {
            // Held requests first, each server's in order, as their servers have room again.
            for server in admission.serversHolding {
                while admission.mayStart(server, multiplexes: multiplexes), let (i, request) = admission.takeHeld(server) {
                    begin(i, request, server)
                }
            }
            while active.count + admission.heldCount < window, let (i, request) = next() {
                let server = Self.server(of: request.url)
                if !admission.isHolding(server) && admission.mayStart(server, multiplexes: multiplexes) {
                    begin(i, request, server)
                } else {
                    admission.hold(i, request, for: server)
                }
            }
            if active.isEmpty {
                // Not expected: with nothing in flight every server has room. Never dropped silently.
                for (i, request) in admission.takeAllHeld() {
                    completion(i, .failure(HTTPClientError(CurlFailure(kind: .other, detail: "not started (no connection to wait for)"),
                                                           request: request)))
                }
            }
            guard !active.isEmpty else { break }
            do throws(CurlFailure) {
                let wait = performInterval - (clock.now - lastPass)
                if wait > .zero { usleep(UInt32(CurlTransportPolicy.milliseconds(wait) * 1000)) }
                lastPass = clock.now
                try multi.perform()
                var finished = false
                while let (easy, code) = multi.nextDone() {
                    guard let t = active.removeValue(forKey: easy) else { continue }
                    finished = true
                    if code == CURLE_OK {
                        finish(t, .success(t.state.response(of: t.handle)))
                    } else {
                        finish(t, .failure(configuration.explain(t.handle.failure(code), state: t.state)))
                    }
                }
                // Streams were freed: fill them before waiting on the sockets.
                if !finished { try multi.poll(milliseconds: 100) }
            } catch {
                // The multi handle itself failed: every transfer still in it fails with it.
                for t in active.values { finish(t, .failure(error)) }
                active.removeAll()
            }
        } while true
    }

    private func start(_ request: HTTPClientRequest, index: Int, server: String, on multi: CurlMultiHandle) throws(CurlFailure) -> Transfer {
        try CurlRuntime.checkInitialized()
        try HTTPRequestValidation.validate(request)
        guard request.bodyFile == nil else {
            throw CurlFailure(kind: .invalidRequest, detail: "a multiplexed request cannot send a file")
        }
        let headers = try configuration.headerList(for: request)
        let resolve = try CurlResolveList(request.resolvedHost, url: request.url)
        let state = TransferState(maxBodyBytes: configuration.maxResponseBytes, maxHeaderBytes: configuration.maxResponseHeaderBytes,
                                  cancellation: nil)
        guard let handle = handles.checkOut() else { throw CurlFailure(kind: .other, detail: "curl_easy_init failed (out of memory)") }
        do throws(CurlFailure) {
            try configuration.policy(for: request).apply(to: handle)
            try configuration.configure(handle, for: request, headers: headers, resolve: resolve, state: state)
            try handle.set(CURLOPT_PIPEWAIT, true)
            if request.body != nil || request.method.alwaysHasBody {
                let bytes = request.body ?? []
                try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(bytes.count))
                // Copied by libcurl, so the bytes need not outlive this call.
                let storage = bytes.isEmpty ? [0] : bytes
                let failure = storage.withUnsafeBytes { b -> CurlFailure? in
                    do throws(CurlFailure) {
                        try handle.set(CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: b.baseAddress))
                    } catch { return error }
                    return nil
                }
                if let failure { throw failure }
            }
            handle.clearError()
            try multi.add(handle)
        } catch {
            handles.checkIn(handle)
            throw error
        }
        return Transfer(index: index, request: request, server: server, handle: handle, state: state, headers: headers, resolve: resolve)
    }
}
