import CMHDShims
import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server over libmicrohttpd that calls one handler per request; the handler
/// answers through an ``HTTPResponder``, exactly once, from any thread.
///
/// libmicrohttpd's polling threads only move bytes; the handler runs on one of
/// ``HTTPServerConfiguration/handlerThreads`` and may block there, and while it has not
/// answered, its connection is suspended and holds no thread. Connections are bounded in
/// number, per IP and in time (``ConnectionGuard``). The server buffers the whole body (up to
/// ``HTTPServerConfiguration/maxBodyBytes``), so the handler sees a complete request.
/// Routing, JSON and authentication live above this type.
///
/// ```swift
/// HTTPServer.ignoreSIGPIPE()
/// let server = try HTTPServer(configuration: .init(port: 8080)) { request in
///     .json(.ok, #"{"status":"ok"}"#)
/// }
/// try SystemdNotifier.notify("READY=1")
/// // … on SIGTERM:
/// server.stop(timeout: .seconds(10))
/// ```
///
/// Thread-safe. Do not call ``stop(timeout:)`` from inside the handler: stopping joins the
/// handler's own thread.
public final class HTTPServer: Sendable {
    /// The port the server listens on: the configured one, or the kernel's pick for port 0.
    /// 0 for a Unix-domain listen socket.
    public let boundPort: UInt16

    private let core: ServerCore
    private let lifecycle: Mutex<Lifecycle>

    private struct Lifecycle {
        /// One libmicrohttpd daemon per polling thread, all on the same listen socket; empty
        /// once stopped. Not one daemon with a thread pool: 0.9.75's `MHD_quiesce_daemon` races
        /// with a pool's threads over the listen socket's epoll registration and aborts the
        /// process ("Failed to remove listen FD from epoll set", daemon.c:5531; 1 stop in 800
        /// under load here), while a daemon with a single polling thread tolerates that race
        /// (daemon.c:5547). A pool is itself one daemon per thread sharing the socket.
        var daemons: [OpaquePointer]
        /// Whether the listen socket came from outside (systemd) and may be shared.
        var socketIsInherited: Bool
        var drained = true
    }

    /// Starts serving at once, with a handler that answers by returning the response.
    public convenience init(
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        accessLog: (@Sendable (HTTPAccessLogEntry) -> Void)? = nil,
        diagnostics: (@Sendable (String) -> Void)? = nil,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(HTTPServerError) {
        try self.init(configuration: configuration, accessLog: accessLog, diagnostics: diagnostics) { request, responder in
            responder.respond(handler(request))
        }
    }

    /// Starts serving at once.
    ///
    /// - Parameters:
    ///   - configuration: Address, limits and thread model.
    ///   - accessLog: Called once the response to a request has been sent (or its
    ///     connection ended), on the MHD thread that served it, so keep it quick. Carries no
    ///     query string, headers or body.
    ///   - diagnostics: libmicrohttpd's own error messages and the server's complaints about
    ///     invalid handler output, one line each; nil discards them.
    ///   - handler: Answers a request through its responder (now, or later from another
    ///     thread). Called concurrently on MHD threads.
    /// - Throws: ``HTTPServerError`` for an invalid configuration or when libmicrohttpd
    ///   cannot start (e.g. the port is taken).
    public init(
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        accessLog: (@Sendable (HTTPAccessLogEntry) -> Void)? = nil,
        diagnostics: (@Sendable (String) -> Void)? = nil,
        handler: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void
    ) throws(HTTPServerError) {
        try Self.validate(configuration)
        let limits = ConnectionGuard.Limits(
            headerTimeout: .milliseconds(Int64(configuration.headerTimeoutSeconds * 1000)),
            bodyTimeout: .milliseconds(Int64(configuration.bodyTimeoutSeconds * 1000)),
            perIP: configuration.perIPConnectionLimit, exempt: configuration.perIPExempt,
            evictAt: max(1, configuration.connectionLimit - max(1, configuration.connectionLimit / 16)))
        let core = ServerCore(maxBodyBytes: configuration.maxBodyBytes, spool: configuration.spool,
                              handlerThreads: configuration.handlerThreads, runsOnPollingThread: configuration.runsOnPollingThread,
                              refusalResponse: configuration.refusalResponse, limits: limits, handler: handler, accessLog: accessLog, diagnostics: diagnostics)
        var address = try configuration.listenSocket == nil
            ? SocketAddress.bindable(host: configuration.host, port: configuration.port)
            : SocketAddress.Bindable()

        let cls = Unmanaged.passUnretained(core).toOpaque()
        var options = ht_mhd_start_options()
        options.flags = Self.flags(for: configuration, ipv6: address.isIPv6, logging: diagnostics != nil)
        options.port = configuration.port
        options.listen_fd = configuration.listenSocket ?? -1
        options.thread_pool_size = 1
        options.connection_timeout_seconds = UInt32(configuration.connectionTimeoutSeconds)
        options.connection_memory_limit = configuration.connectionMemoryLimit
        options.access_handler = MHDCallbacks.accessHandler
        options.access_handler_cls = cls
        options.notify_completed = MHDCallbacks.requestCompleted
        options.notify_completed_cls = cls
        options.uri_log = MHDCallbacks.uriLog
        options.uri_log_cls = cls
        options.logger = MHDCallbacks.logger
        options.logger_cls = cls
        options.notify_connection = MHDCallbacks.notifyConnection
        options.notify_connection_cls = cls
        options.accept_policy = MHDCallbacks.acceptPolicy
        options.accept_policy_cls = cls

        // The first daemon opens the listen socket (or takes the inherited one); the others
        // serve the same socket. The connection limit is split between them, as a pool would.
        let count = configuration.pollingThreads
        var daemons: [OpaquePointer] = []
        for i in 0..<count {
            options.connection_limit = UInt32(configuration.connectionLimit / count + (i < configuration.connectionLimit % count ? 1 : 0))
            let daemon: OpaquePointer?
            if let first = daemons.first {
                options.listen_fd = ht_mhd_listen_fd(first)
                options.bind_address = nil
                daemon = ht_mhd_start(&options)
            } else {
                daemon = withUnsafePointer(to: &address.storage) { storage in
                    storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { bindAddress in
                        options.bind_address = configuration.listenSocket == nil ? bindAddress : nil
                        return ht_mhd_start(&options)
                    }
                }
            }
            guard let daemon else {
                let code = errno
                Self.stop(daemons, closingListenSocket: configuration.listenSocket == nil)
                core.pool.close()
                core.pool.join()
                let target = configuration.listenSocket.map { "listen socket \($0)" }
                    ?? "\(configuration.host) port \(configuration.port)"
                throw HTTPServerError(.startFailed, "libmicrohttpd could not start on \(target)", errno: code)
            }
            daemons.append(daemon)
        }
        core.guardian.start()
        self.core = core
        self.boundPort = ht_mhd_bound_port(daemons[0])
        self.lifecycle = Mutex(Lifecycle(daemons: daemons, socketIsInherited: configuration.listenSocket != nil))
    }

    deinit {
        stop(timeout: .zero)
    }

    /// Requests received but not yet fully answered (a gauge for metrics; also what
    /// ``stop(timeout:)`` waits for).
    public var inFlightRequests: Int { core.inFlightRequests }

    /// Requests waiting for a handler thread (a gauge for metrics).
    public var queuedRequests: Int { core.queuedRequests }

    /// Open connections and what the connection limits did so far.
    public var connectionStatistics: HTTPConnectionStatistics { core.connectionStatistics }

    /// Stops daemons that never served (a later one failed to start): each is quiesced first,
    /// so none closes the socket they share, which is then closed once (unless inherited).
    private static func stop(_ daemons: [OpaquePointer], closingListenSocket: Bool) {
        let listenFD = daemons.map { MHD_quiesce_daemon($0) }.first ?? -1
        for daemon in daemons { MHD_stop_daemon(daemon) }
        if closingListenSocket, listenFD >= 0 { _ = close(listenFD) }
    }

    /// Stops gracefully; safe to call more than once and from several threads.
    ///
    /// 1. `MHD_quiesce_daemon`: MHD stops accepting. For a socket the server opened itself,
    ///    the listen socket is also shut down, so new clients are refused at once instead of
    ///    queueing in the kernel backlog. An inherited (systemd) socket is left alone: its
    ///    backlog belongs to the next instance.
    /// 2. Waits up to `timeout` for in-flight requests to be answered. Responses sent
    ///    meanwhile carry `Connection: close`.
    /// 3. Requests still with a handler, or queued for one, are answered 503 `unavailable`
    ///    (a handler's later answer is dropped), which resumes their connections.
    /// 4. `MHD_stop_daemon`: closes remaining connections. Then the handler threads are
    ///    joined, so a handler still running is waited for regardless of `timeout`.
    ///
    /// - Returns: true if every in-flight request finished within `timeout`.
    @discardableResult
    public func stop(timeout: Duration = .seconds(10)) -> Bool {
        lifecycle.withLock { state in
            guard !state.daemons.isEmpty else { return state.drained }
            core.isStopping.store(true, ordering: .relaxed)
            // "the caller is responsible for closing the returned socket; however, if MHD is
            // run using threads ... it must not be closed until AFTER #MHD_stop_daemon has
            // been called" (microhttpd.h, MHD_quiesce_daemon). shutdown() is not close():
            // the descriptor stays valid, the kernel just stops listening on it.
            let listenFD = state.daemons.map { MHD_quiesce_daemon($0) }.first ?? -1
            if listenFD >= 0, !state.socketIsInherited {
                _ = shutdown(listenFD, Int32(SHUT_RDWR))
            }
            state.drained = core.inFlight.waitUntilZero(timeout: timeout)
            // "You must explicitly resume all connections before stopping the daemon"
            // (microhttpd.h, MHD_suspend_connection): requests still with (or queued for) a
            // handler get a 503, which resumes them; MHD sends it or drops the connection.
            core.answerOutstanding()
            _ = core.inFlight.waitUntilZero(timeout: .milliseconds(500))
            core.guardian.stop()
            core.markStopped()
            for daemon in state.daemons { MHD_stop_daemon(daemon) }
            if listenFD >= 0 { _ = close(listenFD) }
            core.pool.join()
            state.daemons = []
            return state.drained
        }
    }

    // MARK: - Setup

    private static func flags(for configuration: HTTPServerConfiguration, ipv6: Bool, logging: Bool) -> UInt32 {
        // MHD_USE_ITC: "It's required for use of #MHD_quiesce_daemon" (microhttpd.h), and for a
        // resumed connection to be processed at once.
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if ipv6 { flags |= MHD_USE_IPv6.rawValue }
        if logging { flags |= MHD_USE_ERROR_LOG.rawValue }
        return flags
    }

    private static func validate(_ configuration: HTTPServerConfiguration) throws(HTTPServerError) {
        func require(_ condition: Bool, _ message: String) throws(HTTPServerError) {
            if !condition { throw HTTPServerError(.invalidConfiguration, message) }
        }
        let limit = Int(UInt32.max)
        try require((1...limit).contains(configuration.connectionLimit), "connectionLimit must be at least 1")
        try require((0...limit).contains(configuration.perIPConnectionLimit), "perIPConnectionLimit must not be negative")
        try require((0...limit).contains(configuration.connectionTimeoutSeconds),
                    "connectionTimeoutSeconds must not be negative")
        try require(configuration.connectionMemoryLimit >= 4096, "connectionMemoryLimit must be at least 4096 bytes")
        try require(configuration.maxBodyBytes >= 0, "maxBodyBytes must not be negative")
        try require((1...64).contains(configuration.pollingThreads), "pollingThreads must be 1 to 64")
        try require((1...1024).contains(configuration.handlerThreads), "handlerThreads must be 1 to 1024")
        try require(configuration.pollingThreads <= configuration.connectionLimit,
                    "connectionLimit (\(configuration.connectionLimit)) must be at least pollingThreads (\(configuration.pollingThreads)): MHD splits it between the polling threads")
        try require(configuration.headerTimeoutSeconds > 0 && configuration.headerTimeoutSeconds <= 3600,
                    "headerTimeoutSeconds must be more than 0 and at most 3600")
        try require(configuration.bodyTimeoutSeconds > 0 && configuration.bodyTimeoutSeconds <= 3600,
                    "bodyTimeoutSeconds must be more than 0 and at most 3600")
        if let fd = configuration.listenSocket { try require(fd >= 0, "listenSocket must be a valid descriptor") }
    }
}
