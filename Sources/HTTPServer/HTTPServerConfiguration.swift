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
    /// Thread model; see ``HTTPServerThreading`` for what a blocking handler costs.
    public var threading: HTTPServerThreading = .pool(threads: 16)
    /// Maximum simultaneous connections (`MHD_OPTION_CONNECTION_LIMIT`). Further clients
    /// are accepted and closed at once by libmicrohttpd. With a pool, MHD splits this limit
    /// evenly between the threads, so it must be at least the pool size.
    public var connectionLimit: Int = 1024
    /// Maximum simultaneous connections from one IP address
    /// (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`); 0 means unlimited.
    public var perIPConnectionLimit: Int = 0
    /// Seconds of inactivity after which libmicrohttpd closes a connection
    /// (`MHD_OPTION_CONNECTION_TIMEOUT`); 0 means never (then a slow client can hold a
    /// connection forever).
    public var connectionTimeoutSeconds: Int = 30
    /// Per-connection memory pool for the request line, headers and read buffer
    /// (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`). Request headers larger than about half of it
    /// are answered by libmicrohttpd itself with an error status.
    public var connectionMemoryLimit: Int = 32 * 1024
    /// Largest request body the server buffers. A larger body is answered with 413 and the
    /// `too_large` error envelope without calling the handler.
    public var maxBodyBytes: Int = 64 * 1024

    /// The defaults.
    public init() {}

    /// Settings with the commonly changed values.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 0,
        threading: HTTPServerThreading = .pool(threads: 16),
        maxBodyBytes: Int = 64 * 1024
    ) {
        self.host = host
        self.port = port
        self.threading = threading
        self.maxBodyBytes = maxBodyBytes
    }
}
