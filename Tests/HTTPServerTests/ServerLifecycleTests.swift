import TestPolling
import Dispatch
import Foundation
import HTTPServer
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Start, graceful stop, limits and the access log.
@Suite struct ServerLifecycleTests {
    /// Runs `body` on a thread of its own and returns a gate that opens when it has finished.
    /// A thread, not `DispatchQueue.global()`: the bodies block (on a socket, on `stop`), and
    /// Dispatch's default queue is as wide as the machine has cores (2 here), so under a full
    /// parallel test run a blocked body could wait behind others and never start in time.
    private func inBackground(_ body: @escaping @Sendable () -> Void) -> Gate {
        let done = Gate()
        Thread.detachNewThread {
            body()
            done.open()
        }
        return done
    }

    @Test(arguments: [1, 4])
    func stopWaitsForTheInFlightSlowRequestThenRefusesConnections(pollingThreads: Int) throws {
        let entered = Gate(), release = Gate()
        let server = try HTTPServer(configuration: testConfiguration { $0.pollingThreads = pollingThreads }) { request in
            if request.path == "/slow" {
                entered.open()
                _ = release.wait()
            }
            return .text(.ok, "done " + request.path)
        }
        let port = server.boundPort
        let slowResponse = Mutex<RawHTTPResponse?>(nil)
        let slowFinished = inBackground {
            let response = try? RawHTTPClient.exchange(port: port, "GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
            slowResponse.withLock { $0 = response }
        }
        #expect(entered.wait())

        let drained = Atomic<Bool>(false)
        let stopReturned = inBackground { drained.store(server.stop(timeout: .seconds(20)), ordering: .relaxed) }

        // While the slow request is still running, new clients are already refused…
        #expect(waitUntil { RawHTTPClient.connectionRefused(port: port) })
        #expect(server.inFlightRequests == 1)
        #expect(!stopReturned.wait(seconds: 0.2))

        // …and once it finishes, it is answered in full and stop returns.
        release.open()
        #expect(slowFinished.wait())
        #expect(stopReturned.wait())
        let response = try #require(slowResponse.withLock { $0 })
        #expect(response.status == 200)
        #expect(response.bodyText == "done /slow")
        #expect(response.header("Connection")?.lowercased() == "close")
        let stopDrained = drained.load(ordering: .relaxed)
        #expect(stopDrained)
        #expect(server.inFlightRequests == 0)
        #expect(RawHTTPClient.connectionRefused(port: port))
    }

    @Test func stopReportsWhenTheTimeoutPassedFirst() throws {
        let entered = Gate(), release = Gate()
        let server = try HTTPServer(configuration: testConfiguration()) { _ in
            entered.open()
            _ = release.wait()
            return .text(.ok, "late")
        }
        let port = server.boundPort
        let clientDone = inBackground { _ = try? RawHTTPClient.exchange(port: port, "GET / HTTP/1.1\r\nHost: t\r\n\r\n") }
        #expect(entered.wait())

        let drained = Atomic<Bool>(true)
        let stopReturned = inBackground { drained.store(server.stop(timeout: .milliseconds(50)), ordering: .relaxed) }
        // Past the timeout the client gets a 503, but stop joins the handler threads, so it
        // cannot return before the handler does; it reports that the timeout was exceeded.
        #expect(waitUntil { RawHTTPClient.connectionRefused(port: port) })
        #expect(!stopReturned.wait(seconds: 0.3))
        release.open()
        #expect(stopReturned.wait())
        #expect(clientDone.wait())
        let stopDrained = drained.load(ordering: .relaxed)
        #expect(!stopDrained)
        #expect(server.inFlightRequests == 0)
    }

    /// A request that completes after the handlers stopped taking work (a kept-alive client
    /// that sends just then) is answered 503 at once; left suspended, it would make
    /// `MHD_stop_daemon` abort the process ("called while we have suspended connections").
    /// One request held by its handler (`/slow`, which opens `entered`), one at `path` whose
    /// headers are not finished yet (in flight, not dispatched): `stop` times out on both and
    /// answers the held one 503 (the handlers have stopped taking work); then the late request
    /// completes (stop waits up to 0.5 s for it before stopping MHD). Returns its client and
    /// the gate that opens when `stop` returns.
    private func stopWithALateRequest(_ server: HTTPServer, entered: Gate, path: String) throws -> (RawHTTPClient, Gate) {
        let port = server.boundPort
        let slow = try RawHTTPClient(port: port)
        try slow.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(entered.wait())
        let late = try RawHTTPClient(port: port)
        try late.send("GET \(path) HTTP/1.1\r\nHost: t\r\n")
        #expect(waitUntil { server.inFlightRequests == 2 })
        let stopReturned = inBackground { _ = server.stop(timeout: .milliseconds(50)) }
        #expect(try slow.readResponse().status == 503)
        try late.send("\r\n")
        return (late, stopReturned)
    }

    @Test func aRequestArrivingWhileTheServerStopsGets503AndStopReturns() throws {
        let entered = Gate(), release = Gate()
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            if request.path == "/slow" {
                entered.open()
                _ = release.wait()
            }
            return .text(.ok, "done")
        }
        defer { release.open() }
        let (late, stopReturned) = try stopWithALateRequest(server, entered: entered, path: "/late")
        let answer = try late.readResponse()
        #expect(answer.status == 503)
        #expect(answer.header("Retry-After") == "1")
        release.open()
        #expect(stopReturned.wait())
        #expect(server.inFlightRequests == 0)
    }

    /// A request dispatched after the handlers stopped taking work, to a handler that answers
    /// later from another thread (as the daemon's day submissions do, after their COMMIT): its
    /// connection was suspended and nothing resumed it, and libmicrohttpd aborts the process when
    /// it stops with a suspended connection ("MHD_stop_daemon() called while we have suspended
    /// connections", about 1 stop in 100 under load here).
    @Test func stopResumesAConnectionWhoseLaterAnswerHasNotComeYet() throws {
        let entered = Gate(), release = Gate()
        let held = Mutex<[HTTPResponder]>([])
        let configuration = testConfiguration { $0.runsOnPollingThread = { $0.path == "/later" } }
        let server = try HTTPServer(configuration: configuration) { request, responder in
            if request.path == "/later" {
                held.withLock { $0.append(responder) }  // answered after stop, or never
                return
            }
            entered.open()
            _ = release.wait()
            responder.respond(.text(.ok, "done"))
        }
        defer { release.open() }
        let (late, stopReturned) = try stopWithALateRequest(server, entered: entered, path: "/later")
        // The late request goes to its handler, which keeps it. (Only on a machine so slow that
        // it came after the stop's 0.5 s wait does it get its 503 without reaching the handler,
        // and the run does not exercise the resume; that is not a failure.)
        _ = waitUntil(seconds: 2) { held.withLock { $0.count } == 1 }
        release.open()
        #expect(stopReturned.wait())
        // Its connection was resumed with a 503 (sent, or the connection closed by the stop).
        let answer = try? late.readResponse()
        #expect(answer == nil || answer?.status == 503)
        // The handler's answer after the stop goes nowhere (its connection is gone).
        held.withLock { $0 }.forEach { $0.respond(.text(.ok, "too late")) }
        #expect(server.inFlightRequests == 0)
    }

    @Test func stopIsIdempotentAndSafeFromSeveralThreads() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { _ in .text(.ok, "x") }
        #expect(try RawHTTPClient.exchange(port: server.boundPort, "GET / HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)

        let results = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let drained = server.stop(timeout: .seconds(1))
            results.withLock { $0.append(drained) }
        }

        #expect(results.withLock { $0 } == [true, true, true, true])
        #expect(server.stop())
    }

    @Test func accessLogHasPathStatusAndIDButNoQuery() throws {
        let entries = Recorder<HTTPAccessLogEntry>()
        let server = try HTTPServer(configuration: testConfiguration(), accessLog: { entries.append($0) }) { _ in
            .text(.accepted, "12345")
        }
        defer { server.stop() }

        let response = try RawHTTPClient.exchange(
            port: server.boundPort,
            "POST /api/entries?token=s3cret HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer s3cret\r\nContent-Length: 2\r\n\r\n{}")

        #expect(waitUntil { entries.count == 1 })
        let entry = try #require(entries.last)
        #expect(entry.method == .post)
        #expect(entry.path == "/api/entries")
        #expect(entry.status == .accepted)
        #expect(entry.bodyBytes == 5)
        #expect(entry.clientAddress == "127.0.0.1")
        #expect(entry.requestID == response.header("X-Request-Id"))
        #expect(entry.completed)
        #expect(entry.durationSeconds >= 0 && entry.durationSeconds < 10)
        #expect(!String(describing: entry).contains("s3cret"))
    }

    @Test func perIPConnectionLimitIsHonoured() throws {
        let server = try HTTPServer(configuration: testConfiguration { $0.perIPConnectionLimit = 2 }) { _ in
            .text(.ok, "x")
        }
        defer { server.stop() }
        let request = "GET / HTTP/1.1\r\nHost: t\r\n\r\n"

        // Two kept-alive connections, each proven accepted by a completed exchange.
        let first = try RawHTTPClient(port: server.boundPort)
        let second = try RawHTTPClient(port: server.boundPort)
        for client in [first, second] {
            try client.send(request)
            #expect(try client.readResponse().status == 200)
        }
        // "If the same IP tries to establish more than the specified number of connections,
        // they will be immediately rejected." (microhttpd.h)
        let third = try RawHTTPClient(port: server.boundPort)
        try? third.send(request)
        #expect(third.isClosedByPeer())

        // The existing ones still work.
        try first.send(request)
        #expect(try first.readResponse().status == 200)
    }

    @Test func servesAnInheritedListeningSocket() throws {
        let fd = try makeListeningSocket()
        let server = try HTTPServer(configuration: testConfiguration { $0.listenSocket = fd }) { _ in .text(.ok, "inherited") }
        let port = server.boundPort

        #expect(port != 0)
        #expect(try RawHTTPClient.exchange(port: port, "GET / HTTP/1.1\r\nHost: t\r\n\r\n").bodyText == "inherited")
        #expect(server.stop())
        #expect(RawHTTPClient.connectionRefused(port: port))
    }

    @Test func startFailsClearlyWhenThePortIsTaken() throws {
        let first = try HTTPServer(configuration: testConfiguration()) { _ in .text(.ok, "x") }
        defer { first.stop() }

        let diagnostics = Recorder<String>()
        #expect {
            _ = try HTTPServer(configuration: testConfiguration { $0.port = first.boundPort },
                               diagnostics: { diagnostics.append($0) }) { _ in .text(.ok, "y") }
        } throws: { error in
            (error as? HTTPServerError)?.code == .startFailed
        }
        // libmicrohttpd's own explanation reaches the diagnostics hook, not stderr.
        #expect(diagnostics.all.contains { $0.lowercased().contains("bind") })
    }

    @Test func hostNamesAndBadLimitsAreRejectedBeforeStarting() {
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(configuration: testConfiguration { $0.host = "localhost" }) { _ in .text(.ok, "") }
        }
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(configuration: testConfiguration { $0.connectionLimit = 1 }) { _ in .text(.ok, "") }
        }
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(configuration: testConfiguration { $0.headerTimeoutSeconds = 0 }) { _ in .text(.ok, "") }
        }
    }

    /// A TCP socket bound to 127.0.0.1:0 and listening, as systemd would pass it.
    private func makeListeningSocket() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(fd >= 0 && bound == 0 && listen(fd, 16) == 0)
        return fd
    }
}
