import HTTPServer
import Synchronization
import HyponaTrackDomain
import HyponaTrackWeb

/// The HTTP server as a background service. libmicrohttpd serves on its own threads from
/// `HTTPServer.init` on; this adapter's `run()` waits for the stop request and then stops the
/// server gracefully (`HTTPServer.stop(timeout:)`: refuse new connections, let in-flight
/// requests finish within `drainSeconds`, join libmicrohttpd's threads).
final class HTTPServerService: BackgroundService {
    let server: HTTPServer
    let drainSeconds: Double
    let name = "http"
    private let signal = StopSignal()
    private enum Phase { case notRun, stopping, stopped(drained: Bool) }
    private let phase = Mutex(Phase.notRun)

    init(server: HTTPServer, drainSeconds: Double = 20) {
        self.server = server
        self.drainSeconds = drainSeconds
    }

    /// The drain, plus time for a handler still running to return (`MHD_stop_daemon` joins it).
    var stopDeadline: Double { drainSeconds + 5 }

    func run() {
        signal.waitForStop()
        phase.withLock { $0 = .stopping }
        let drained = server.stop(timeout: .milliseconds(Int64(drainSeconds * 1000)))
        phase.withLock { $0 = .stopped(drained: drained) }
    }

    func requestStop() { signal.requestStop() }

    /// Whether every in-flight request finished within the drain: false while the stop is still
    /// under way (it missed its deadline), nil when the service never ran (the server is still up).
    var inFlightFinished: Bool? {
        phase.withLock { phase in
            switch phase {
            case .notRun: return nil
            case .stopping: return false
            case .stopped(let drained): return drained
            }
        }
    }
}
