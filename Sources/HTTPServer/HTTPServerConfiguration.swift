/// Transport settings for ``HTTPServer``. Defaults suit a service behind a local reverse
/// proxy: loopback only, bounded connections, a 64 KiB body cap.
public struct HTTPServerConfiguration: Sendable {
    /// Address to bind: an IPv4 or IPv6 literal (`127.0.0.1`, `::1`, `0.0.0.0`, `::`).
    /// Ignored when ``listenSocket`` is set.
    public var host: String = "127.0.0.1"
    /// Port to bind; 0 picks a free ephemeral port (read it back from
    /// ``HTTPServer/boundPort``). Ignored when ``listenSocket`` is set.
    public var port: UInt16 = 0
    /// An already bound and listening socket to serve instead of opening one
    /// (`MHD_OPTION_LISTEN_SOCKET`), e.g. fd 3 from systemd socket activation. The server
    /// owns it from then on and closes its descriptor on ``HTTPServer/stop(timeout:)``.
    public var listenSocket: Int32? = nil
    /// libmicrohttpd's polling threads (epoll), each serving many connections. They only move
    /// bytes: handlers run on ``handlerThreads``, so a slow client or a slow handler never
    /// holds one.
    public var pollingThreads: Int = 2
    /// Threads that run handlers. A request waiting for one, or waiting for its handler's
    /// answer from another thread, holds no thread at all: its connection is suspended
    /// (`MHD_suspend_connection`) until the answer is there.
    public var handlerThreads: Int = 16
    /// Requests that skip the hand-over to a handler thread: their handler runs on the polling
    /// thread that received them (nil: none). Only for handlers that do bounded work — a
    /// capped body, short indexed reads — and answer later from another thread without
    /// waiting (a write answered from its commit): for them the hand-over cost more CPU than
    /// the work. Everything else still goes to ``handlerThreads``.
    public var runsOnPollingThread: (@Sendable (HTTPRequest) -> Bool)? = nil
    /// Maximum simultaneous connections (`MHD_OPTION_CONNECTION_LIMIT`); further clients are
    /// accepted and closed at once by libmicrohttpd. Near the limit the connection that has
    /// waited longest for its request headers is closed to make room (see ``ConnectionGuard``).
    public var connectionLimit: Int = 1024
    /// Maximum simultaneous connections from one IP address; 0 means unlimited.
    public var perIPConnectionLimit: Int = 0
    /// Addresses the per-IP limit does not apply to (a reverse proxy: every connection comes
    /// from it).
    public var perIPExempt: Set<String> = []
    /// Seconds within which a connection's request headers must be complete: from accept for
    /// its first request, from the end of the previous response for later ones (keep-alive).
    public var headerTimeoutSeconds: Double = 10
    /// Seconds within which the body must be complete after the headers.
    public var bodyTimeoutSeconds: Double = 30
    /// Seconds of inactivity after which libmicrohttpd closes a connection
    /// (`MHD_OPTION_CONNECTION_TIMEOUT`), e.g. a client that stops reading its response; 0
    /// means never.
    public var connectionTimeoutSeconds: Int = 30
    /// Per-connection memory pool for the request line, headers and read buffer
    /// (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`). Request headers larger than about half of it
    /// are answered by libmicrohttpd itself with an error status.
    public var connectionMemoryLimit: Int = 32 * 1024
    /// Largest request body the server buffers. A larger body is answered with 413 and the
    /// `too_large` error envelope (or what ``refusalResponse`` makes of it) without calling
    /// the handler.
    public var maxBodyBytes: Int = 64 * 1024
    /// Routes whose (larger) bodies are written to disk instead (imports); nil: none.
    public var spool: UploadSpool? = nil
    /// Answers the server's own refusals (``HTTPServerRefusal``: an unreadable target, a body
    /// over the limit, …) instead of the JSON envelope when it returns a response; nil, or a
    /// nil answer, keeps the envelope. Runs on a polling thread: bounded work only, no I/O.
    public var refusalResponse: (@Sendable (HTTPServerRefusal) -> HTTPResponse?)? = nil

    /// The defaults.
    public init() {}

    /// Settings with the commonly changed values.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 0,
        handlerThreads: Int = 16,
        maxBodyBytes: Int = 64 * 1024
    ) {
        self.host = host
        self.port = port
        self.handlerThreads = handlerThreads
        self.maxBodyBytes = maxBodyBytes
    }
}
