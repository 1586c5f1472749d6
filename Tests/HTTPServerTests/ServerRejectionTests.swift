import TestPolling
import HTTPServer
import Synchronization
import Testing

/// Requests the transport answers itself, without (or despite) the handler.
@Suite struct ServerRejectionTests {
    private static let tooLargeBody =
        #"{"error":{"code":"too_large","message":"The request body is larger than the limit of 65536 bytes.","field":null}}"#

    @Test func bodyOverLimitGets413JSONWithoutCallingTheHandler() throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer(configuration: testConfiguration()) { _ in
            calls.add(1, ordering: .relaxed)
            return .text(.ok, "should not happen")
        }
        defer { server.stop() }

        let client = try RawHTTPClient(port: server.boundPort)
        try client.send("POST /entries HTTP/1.1\r\nHost: t\r\nContent-Length: 70000\r\n\r\n")
        try client.send(patternBody(count: 70_000))
        let response = try client.readResponse()

        #expect(response.status == 413)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        #expect(response.bodyText == Self.tooLargeBody)
        #expect(calls.load(ordering: .relaxed) == 0)

        // The oversized body was read and dropped, so the connection is still in sync.
        try client.send("GET /after HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test func bodyOfExactlyTheLimitIsAccepted() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            .text(.ok, String(request.body.count))
        }
        defer { server.stop() }

        let client = try RawHTTPClient(port: server.boundPort)
        try client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 65536\r\n\r\n")
        try client.send(patternBody(count: 65_536))
        #expect(try client.readResponse().bodyText == "65536")
    }

    @Test func chunkedBodyOverLimitGets413() throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer(configuration: testConfiguration()) { _ in
            calls.add(1, ordering: .relaxed)
            return .text(.ok, "no")
        }
        defer { server.stop() }

        let client = try RawHTTPClient(port: server.boundPort)
        try client.send("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in 0..<10 {
            try client.send("2000\r\n")  // 8 KiB chunks, 80 KiB in all
            try client.send(patternBody(count: 0x2000) + Array("\r\n".utf8))
        }
        try client.send("0\r\n\r\n")

        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.bodyText == Self.tooLargeBody)
        #expect(calls.load(ordering: .relaxed) == 0)
    }

    @Test func expectContinueWithOversizedLengthIsRefusedBeforeTheBody() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { _ in .text(.ok, "no") }
        defer { server.stop() }

        let client = try RawHTTPClient(port: server.boundPort)
        try client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 70000\r\nExpect: 100-continue\r\n\r\n")
        let response = try client.readResponse()  // no "100 Continue" first, and no body sent

        #expect(response.status == 413)
        #expect(response.bodyText == Self.tooLargeBody)
        #expect(waitUntil { server.inFlightRequests == 0 })
    }

    @Test func malformedRequestLineGetsMHDs400AndServerKeepsServing() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { _ in .text(.ok, "fine") }
        defer { server.stop() }

        let garbage = try RawHTTPClient(port: server.boundPort)
        try garbage.send("THIS IS NOT HTTP AT ALL\r\n\r\n")
        #expect(try garbage.readResponse().status == 400)

        let noColon = try RawHTTPClient(port: server.boundPort)
        try noColon.send("GET / HTTP/1.1\r\nHost: t\r\nThis line has no colon\r\n\r\n")
        #expect(try noColon.readResponse().status == 400)

        #expect(try RawHTTPClient.exchange(port: server.boundPort, "GET / HTTP/1.1\r\nHost: t\r\n\r\n").bodyText == "fine")
        #expect(waitUntil { server.inFlightRequests == 0 })
    }

    @Test func oversizedHeadersAreRefusedByMHD() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { _ in .text(.ok, "no") }
        defer { server.stop() }

        let client = try RawHTTPClient(port: server.boundPort)
        try client.send("GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + String(repeating: "a", count: 40_000) + "\r\n\r\n")
        let status = try client.readResponse().status

        #expect(status == 431 || status == 413)
        #expect(waitUntil { server.inFlightRequests == 0 })
    }

    @Test(arguments: ["/%FF", "/a%00b", "/?q=%E2%82"])
    func undecodableTargetGets400JSONWithoutCallingTheHandler(_ target: String) throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer(configuration: testConfiguration()) { _ in
            calls.add(1, ordering: .relaxed)
            return .text(.ok, "no")
        }
        defer { server.stop() }

        let response = try RawHTTPClient.exchange(port: server.boundPort, "GET \(target) HTTP/1.1\r\nHost: t\r\n\r\n")

        #expect(response.status == 400)
        #expect(response.bodyText.hasPrefix(#"{"error":{"code":"invalid_value","message":"The "#))
        #expect(calls.load(ordering: .relaxed) == 0)
    }

    @Test func invalidHandlerOutputBecomes500AndADiagnostic() throws {
        let diagnostics = Recorder<String>()
        let server = try HTTPServer(configuration: testConfiguration(), diagnostics: { diagnostics.append($0) }) { request in
            request.path == "/status"
                ? HTTPResponse(status: 42)
                : HTTPResponse(status: .ok, headers: ["X-Injected": "a\r\nSet-Cookie: evil=1"])
        }
        defer { server.stop() }

        let badHeader = try RawHTTPClient.exchange(port: server.boundPort, "GET /header HTTP/1.1\r\nHost: t\r\n\r\n")
        let badStatus = try RawHTTPClient.exchange(port: server.boundPort, "GET /status HTTP/1.1\r\nHost: t\r\n\r\n")

        #expect(badHeader.status == 500)
        #expect(badHeader.header("Set-Cookie") == nil)
        #expect(badStatus.status == 500)
        #expect(diagnostics.all.contains { $0.contains("X-Injected") })
        #expect(diagnostics.all.contains { $0.contains("status 42") })
    }

    @Test func theApplicationMayAnswerTheServersOwnRefusalsAndKeepsTheEnvelopeWhenItDeclines() throws {
        let seen = Mutex<[String]>([])
        let config = testConfiguration { c in
            c.refusalResponse = { refusal in
                seen.withLock { $0.append("\(refusal.status.rawValue) \(refusal.code) \(refusal.rawPath) \(refusal.headers["x-probe"] ?? "-")") }
                guard refusal.rawPath.hasPrefix("/pages/") else { return nil }
                return .text(refusal.status, "page: \(refusal.message)")
            }
        }
        let server = try HTTPServer(configuration: config) { _ in .text(.ok, "handler") }
        defer { server.stop() }

        let client = try RawHTTPClient(port: server.boundPort)
        try client.send("GET /pages/%FF?q=1 HTTP/1.1\r\nHost: t\r\nX-Probe: a\r\n\r\n")
        let page = try client.readResponse()
        #expect(page.status == 400 && page.bodyText == "page: The request path is not valid UTF-8.")
        try client.send("POST /pages/form HTTP/1.1\r\nHost: t\r\nX-Probe: b\r\nContent-Length: 70000\r\n\r\n")
        try client.send(patternBody(count: 70_000))
        let tooLarge = try client.readResponse()
        #expect(tooLarge.status == 413 && tooLarge.bodyText.hasPrefix("page: The request body is larger"))
        try client.send("GET /api/%FF HTTP/1.1\r\nHost: t\r\n\r\n")
        let api = try client.readResponse()
        #expect(api.status == 400 && api.bodyText.hasPrefix(#"{"error":{"code":"invalid_value""#), "nil keeps the JSON envelope")
        #expect(seen.withLock { $0 } == ["400 invalid_value /pages/%FF a", "413 too_large /pages/form b", "400 invalid_value /api/%FF -"])
    }
}
