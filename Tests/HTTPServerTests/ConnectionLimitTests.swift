import TestPolling
import Dispatch
import Foundation
import HTTPServer
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Slow and numerous clients against the server's own limits (docs/product.md, "Limits under
/// hostile traffic"): deadlines, per-IP caps, room under a flood, and requests that wait for
/// their answer without holding a thread.
@Suite("Connection limits", .serialized)
struct ConnectionLimitTests {
    let request = "GET / HTTP/1.1\r\nHost: t\r\n\r\n"

    @Test func aClientTricklingHeaderLinesIsClosedAtTheHeaderDeadlineWhileOthersAreServed() throws {
        let server = try HTTPServer(configuration: testConfiguration { $0.headerTimeoutSeconds = 1 }) { _ in .text(.ok, "x") }
        defer { server.stop() }
        let slow = try RawHTTPClient(port: server.boundPort, timeoutSeconds: 5)
        try slow.send("GET / HTTP/1.1\r\nHost: t\r\n")
        let started = ContinuousClock.now
        var closed = false
        // One header line every 300 ms (waiting, between lines, for the server to close it):
        // never idle for long, but never done.
        for index in 0..<20 {
            if slow.isClosedByPeer(withinMilliseconds: 300) { closed = true; break }
            #expect(try RawHTTPClient.exchange(port: server.boundPort, request).status == 200)
            do { try slow.send("X-Trickle-\(index): y\r\n") } catch { closed = true; break }
        }
        #expect(closed)
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(server.connectionStatistics.closedHeaderDeadline >= 1)
    }

    @Test func aBodyThatDoesNotArriveInTimeClosesTheConnectionWithoutCallingTheHandler() throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer(configuration: testConfiguration { $0.bodyTimeoutSeconds = 1 }) { _ in
            calls.add(1, ordering: .relaxed)
            return .text(.ok, "x")
        }
        defer { server.stop() }
        let slow = try RawHTTPClient(port: server.boundPort, timeoutSeconds: 5)
        try slow.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n0123456789")
        #expect(slow.isClosedByPeer(withinMilliseconds: 4000))
        #expect(calls.load(ordering: .relaxed) == 0)
        #expect(server.connectionStatistics.closedBodyDeadline == 1)
    }

    @Test func theLimitPerIPLeavesOtherAddressesAndExemptProxiesAlone() throws {
        let server = try HTTPServer(configuration: testConfiguration {
            $0.perIPConnectionLimit = 3
            $0.perIPExempt = ["127.0.0.3"]
        }) { _ in .text(.ok, "x") }
        defer { server.stop() }
        func open(_ source: String) throws -> RawHTTPClient {
            let c = try RawHTTPClient(port: server.boundPort, timeoutSeconds: 2, source: source)
            try c.send(request)
            return c
        }
        let capped = try (0..<3).map { _ in try open("127.0.0.2") }
        for c in capped { #expect(try c.readResponse().status == 200) }
        let fourth = try open("127.0.0.2")
        #expect(fourth.isClosedByPeer(withinMilliseconds: 2000))
        #expect(server.connectionStatistics.refusedPerIP == 1)
        // Another address, and the exempt proxy with more than three.
        #expect(try open("127.0.0.4").readResponse().status == 200)
        let proxied = try (0..<6).map { _ in try open("127.0.0.3") }
        for c in proxied { #expect(try c.readResponse().status == 200) }
    }

    @Test func whenIdleSocketsFillTheServerTheOldestIsClosedForANewClient() throws {
        let server = try HTTPServer(configuration: testConfiguration {
            $0.connectionLimit = 32
            $0.headerTimeoutSeconds = 60
        }) { _ in .text(.ok, "x") }
        defer { server.stop() }
        // 40 sockets that never send a byte, from 10 addresses.
        var idle: [RawHTTPClient] = []
        for index in 0..<40 { idle.append(try RawHTTPClient(port: server.boundPort, source: "127.0.1.\(index % 10 + 1)")) }
        #expect(waitUntil { server.connectionStatistics.evicted > 0 })
        // A new client is still served…
        #expect(try RawHTTPClient.exchange(port: server.boundPort, request).status == 200)
        // …and the oldest idle socket was the one closed.
        #expect(idle[0].isClosedByPeer(withinMilliseconds: 2000))
        #expect(server.connectionStatistics.open <= 32)
    }

    @Test func requestsWaitingForTheirAnswerHoldNoThread() throws {
        // One handler thread; each handler parks its responder and returns at once. All 48
        // requests are waiting together, on two polling threads, before any is answered.
        let parked = Mutex<[HTTPResponder]>([])
        let server = try HTTPServer(configuration: testConfiguration {
            $0.handlerThreads = 1
            $0.pollingThreads = 2
        }) { _, responder in parked.withLock { $0.append(responder) } }
        defer { server.stop() }
        let count = 48
        let answered = Atomic<Int>(0)
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            Thread.detachNewThread {
                if (try? RawHTTPClient.exchange(port: server.boundPort, "GET / HTTP/1.1\r\nHost: t\r\n\r\n"))?.status == 200 {
                    answered.add(1, ordering: .relaxed)
                }
                group.leave()
            }
        }
        #expect(waitUntil(seconds: 10) { parked.withLock { $0.count } == count })
        #expect(server.inFlightRequests == count)
        #expect(answered.load(ordering: .relaxed) == 0)
        DispatchQueue.global().async { for r in parked.withLock({ $0 }) { r.respond(.text(.ok, "late")) } }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(answered.load(ordering: .relaxed) == count)
    }

    @Test func requestsPickedForThePollingThreadAreServedWhileEveryHandlerThreadIsBusy() throws {
        // The one handler thread is held by /hold; /quick, picked by runsOnPollingThread, is
        // answered anyway (and, answered later from another thread, with a response built
        // on the thread that sends it); /queued waits for the handler thread.
        let release = DispatchSemaphore(value: 0), holding = DispatchSemaphore(value: 0)
        let builtOn = Mutex<String?>(nil)
        let server = try HTTPServer(configuration: testConfiguration {
            $0.handlerThreads = 1
            $0.runsOnPollingThread = { $0.path == "/quick" }
        }) { request, responder in
            switch request.path {
            case "/hold": holding.signal(); release.wait(); responder.respond(.text(.ok, "held"))
            case "/quick":
                DispatchQueue.global().async {
                    responder.respond(building: {
                        let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
                        builtOn.withLock { $0 = name }
                        return .text(.ok, "quick")
                    })
                }
            default: responder.respond(.text(.ok, "queued"))
            }
        }
        defer { server.stop() }
        let held = DispatchGroup()
        for path in ["/hold", "/queued"] {
            held.enter()
            Thread.detachNewThread {
                _ = try? RawHTTPClient.exchange(port: server.boundPort, "GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
                held.leave()
            }
            // /hold first, so that it is /queued that waits for the handler thread.
            if path == "/hold" { #expect(holding.wait(timeout: .now() + 10) == .success) }
        }
        #expect(waitUntil(seconds: 10) { server.inFlightRequests == 2 })
        let quick = try RawHTTPClient.exchange(port: server.boundPort, "GET /quick HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(quick.status == 200)
        #expect(quick.body == Array("quick".utf8))
        #expect(builtOn.withLock { $0 }?.hasPrefix("MHD") == true)
        #expect(waitUntil(seconds: 10) { server.inFlightRequests == 2 })   // /hold and /queued still wait
        release.signal()
        #expect(held.wait(timeout: .now() + 10) == .success)
    }
}
