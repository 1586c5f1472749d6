/// How libmicrohttpd runs connections, and therefore what a *blocking* handler costs.
///
/// Handlers here are synchronous and may block (a write is answered only after its database
/// `COMMIT`), so the choice matters:
///
/// - ``pool(threads:)`` — `MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL` with
///   `MHD_OPTION_THREAD_POOL_SIZE`: each pool thread runs its own epoll loop over the
///   connections it accepted, and calls the handler inline. The fastest mode, but while a
///   handler blocks, *every other connection owned by that thread* waits too. Size the pool
///   to the number of handlers you expect to be blocked at once (e.g. waiting on the single
///   SQLite writer) plus headroom; the default is 16.
/// - ``threadPerConnection`` — `MHD_USE_THREAD_PER_CONNECTION`: one thread per connection,
///   so a blocked handler only stalls its own client. Costs a thread (and its stack) per open
///   connection; bound it with ``HTTPServerConfiguration/connectionLimit``.
public enum HTTPServerThreading: Sendable, Equatable {
    /// A fixed pool of epoll threads (the default, with 16 threads).
    case pool(threads: Int)
    /// One thread per connection.
    case threadPerConnection
}
