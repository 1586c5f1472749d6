import Synchronization

/// A few idle easy handles kept for reuse, so consecutive requests to the same server reuse
/// its open connection and TLS session instead of paying a new handshake each time.
///
/// Each handle is checked out by one thread at a time ("one easy handle per thread at a
/// time"). A handle is `curl_easy_reset` when it comes back, so an idle handle holds no
/// pointer into a finished transfer; connections and caches survive the reset.
final class CurlEasyHandlePool: Sendable {
    private let idle = Mutex<[CurlEasyHandle]>([])
    private let maxIdle: Int

    /// - Parameter maxIdle: Handles kept when returned; more concurrent requests still work,
    ///   their extra handles are cleaned up afterwards.
    init(maxIdle: Int) {
        self.maxIdle = max(0, maxIdle)
    }

    /// An idle handle, or a new one; nil when libcurl cannot allocate one.
    func checkOut() -> CurlEasyHandle? {
        if let handle = idle.withLock({ $0.popLast() }) { return handle }
        return CurlEasyHandle()
    }

    /// Returns a handle after its transfer finished (successfully or not). Beyond `maxIdle`
    /// it is dropped, and its `deinit` cleans it up once the caller lets go of it.
    func checkIn(_ handle: CurlEasyHandle) {
        handle.reset()
        idle.withLock { handles in
            if handles.count < maxIdle { handles.append(handle) }
        }
    }
}
