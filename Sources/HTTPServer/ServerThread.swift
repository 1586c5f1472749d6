import CMHDShims

#if canImport(Glibc)
import Glibc
#endif

/// A joinable thread with a name: the server's own threads (handler workers, the deadline
/// sweeper); libmicrohttpd creates its polling threads itself.
final class ServerThread: @unchecked Sendable {
    private var thread = pthread_t()

    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
    }

    /// Starts `body` on a new thread named `name` (Linux keeps 15 bytes of it).
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        let created = pthread_create(&thread, nil, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            ht_set_thread_name(String(start.name.prefix(15)))
            start.body()
            return nil
        }, start)
        precondition(created == 0, "pthread_create failed (\(created)) for \(name)")
    }

    /// Waits until the body has returned.
    func join() { _ = pthread_join(thread, nil) }
}
