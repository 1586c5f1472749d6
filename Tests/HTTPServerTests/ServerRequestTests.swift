import Dispatch
import HTTPServer
import Synchronization
import Testing

/// What the handler receives, over real loopback sockets.
@Suite struct ServerRequestTests {
    @Test func getDeliversDecodedPathQueryAndClientAddress() throws {
        let seen = Recorder<HTTPRequest>()
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            seen.append(request)
            return .text(.ok, "hello")
        }
        defer { server.stop() }

        let response = try RawHTTPClient.exchange(
            port: server.boundPort,
            "GET /patients/P%2001?tag=b&tag=a&note=x+y%26z&token=s3cret HTTP/1.1\r\nHost: t\r\n\r\n")

        #expect(response.status == 200)
        #expect(response.bodyText == "hello")
        let request = try #require(seen.last)
        #expect(request.method == .get)
        #expect(request.path == "/patients/P 01")
        #expect(request.rawPath == "/patients/P%2001")
        #expect(request.query.values(for: "tag") == ["b", "a"])
        #expect(request.query["note"] == "x y&z")
        #expect(request.clientAddress == "127.0.0.1")
        #expect(request.body.isEmpty)
        #expect(request.requestID.count == 16)
        #expect(response.header("X-Request-Id") == request.requestID)
    }

    @Test func headersAreLookedUpCaseInsensitively() throws {
        let seen = Recorder<HTTPRequest>()
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            seen.append(request)
            return HTTPResponse(status: .noContent)
        }
        defer { server.stop() }

        let response = try RawHTTPClient.exchange(
            port: server.boundPort,
            "GET / HTTP/1.1\r\nHost: t\r\nx-CUSTOM-header: Value One\r\nAUTHORIZATION: Bearer abc\r\n\r\n")

        #expect(response.status == 204)
        let request = try #require(seen.last)
        #expect(request.headers["X-Custom-Header"] == "Value One")
        #expect(request.headers["authorization"] == "Bearer abc")
        #expect(request.headers["host"] == "t")
    }

    @Test func postBodyArrivesIntactWhenSentSlowlyInPieces() throws {
        let seen = Recorder<[UInt8]>()
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            seen.append(request.body)
            return .text(.created, String(request.body.count))
        }
        defer { server.stop() }
        let body = patternBody(count: 60 * 1024)

        let client = try RawHTTPClient(port: server.boundPort)
        try client.send("POST /entries HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n")
        try client.sendSlowly(body, pieceSize: 1500, pauseMicroseconds: 2000)
        let response = try client.readResponse()

        #expect(response.status == 201)
        #expect(response.bodyText == "61440")
        #expect(seen.last == body)
    }

    @Test func formEncodedBodyIsPassedThroughUnparsed() throws {
        let seen = Recorder<HTTPRequest>()
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            seen.append(request)
            return .text(.ok, "ok")
        }
        defer { server.stop() }

        _ = try RawHTTPClient.exchange(
            port: server.boundPort,
            "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\na=1&b=2")

        let request = try #require(seen.last)
        #expect(request.bodyText == "a=1&b=2")
        #expect(request.query.isEmpty)
    }

    @Test func chunkedTransferEncodingBodyIsReassembled() throws {
        let seen = Recorder<[UInt8]>()
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            seen.append(request.body)
            return .text(.ok, "ok")
        }
        defer { server.stop() }
        let body = patternBody(count: 20_000)

        let client = try RawHTTPClient(port: server.boundPort)
        try client.send("PUT /x HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
        for start in stride(from: 0, to: body.count, by: 7000) {
            let piece = Array(body[start..<min(start + 7000, body.count)])
            try client.send(String(piece.count, radix: 16) + "\r\n")
            try client.send(piece + Array("\r\n".utf8))
        }
        try client.send("0\r\n\r\n")

        #expect(try client.readResponse().status == 200)
        #expect(seen.last == body)
    }

    @Test func keepAliveConnectionServesSeveralRequests() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            .text(.ok, request.path)
        }
        defer { server.stop() }

        let client = try RawHTTPClient(port: server.boundPort)
        for index in 0..<5 {
            try client.send("GET /n/\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try client.readResponse().bodyText == "/n/\(index)")
        }
    }

    @Test func headAndUnknownMethodsReachTheHandler() throws {
        let seen = Recorder<HTTPMethod>()
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            seen.append(request.method)
            return .text(.ok, "twelve bytes")
        }
        defer { server.stop() }

        let client = try RawHTTPClient(port: server.boundPort)
        try client.send("HEAD /x HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try client.readResponse(bodyExpected: false)
        try client.send("BREW /pot HTTP/1.1\r\nHost: t\r\n\r\n")
        let brew = try client.readResponse()

        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "12")
        #expect(brew.status == 200)
        #expect(brew.bodyText == "twelve bytes")  // proves HEAD left no stray body on the wire
        #expect(seen.all == [.head, HTTPMethod(rawValue: "BREW")])
    }

    @Test func servesIPv6Loopback() throws {
        let seen = Recorder<String>()
        let server = try HTTPServer(configuration: testConfiguration { $0.host = "::1" }) { request in
            seen.append(request.clientAddress)
            return .text(.ok, "v6")
        }
        defer { server.stop() }

        let response = try RawHTTPClient.exchange(port: server.boundPort, "GET / HTTP/1.1\r\nHost: t\r\n\r\n", host: "::1")

        #expect(response.bodyText == "v6")
        #expect(seen.last == "::1")
    }

    @Test func sixteenThreadsAreAllAnswered() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            .text(.ok, "echo:" + (request.query["i"] ?? "?"))
        }
        defer { server.stop() }
        let failures = Mutex<[String]>([])
        let answered = Atomic<Int>(0)
        let port = server.boundPort

        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            for round in 0..<20 {
                let id = "\(thread)-\(round)"
                do {
                    let response = try RawHTTPClient.exchange(port: port, "GET /c?i=\(id) HTTP/1.1\r\nHost: t\r\n\r\n")
                    if response.status == 200, response.bodyText == "echo:\(id)" {
                        answered.add(1, ordering: .relaxed)
                    } else {
                        failures.withLock { $0.append("\(id): \(response.status) \(response.bodyText)") }
                    }
                } catch {
                    failures.withLock { $0.append("\(id): \(error)") }
                }
            }
        }

        #expect(failures.withLock { $0 } == [])
        #expect(answered.load(ordering: .relaxed) == 320)
    }
}
