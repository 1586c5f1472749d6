import HTTPClient
import Testing

@Suite struct RoundTripTests {
    @Test func getReturnsStatusHeadersAndBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try testClient().send(HTTPClientRequest(url: server.url("/echo"), headers: ["X-Token": "t-123"]))
        #expect(response.status == 200)
        #expect(response.isSuccess)
        #expect(response.headers["x-echo-method"] == "GET")
        #expect(response.headers["X-Echo-Token"] == "t-123")
        #expect(response.headers["X-Echo-User-Agent"] == "HyponaTrack-Tests")
        #expect(response.headers.values(for: "x-multi") == ["one", "two"])
        #expect(response.body.isEmpty)
        #expect(response.totalTime > .zero)
    }

    @Test func postSendsBodyAndContentType() throws {
        let server = try TestServer()
        defer { server.stop() }
        let request = HTTPClientRequest.json(method: .post, url: server.url("/echo"), body: #"{"pod":3}"#)
        let response = try testClient().send(request)
        #expect(response.status == 200)
        #expect(response.headers["X-Echo-Method"] == "POST")
        #expect(response.headers["X-Echo-Content-Type"] == "application/json; charset=utf-8")
        #expect(response.bodyText == #"{"pod":3}"#)
    }

    @Test(arguments: [HTTPClientRequest.Method.put, .patch, .delete])
    func methodsWithBodiesRoundTrip(method: HTTPClientRequest.Method) throws {
        let server = try TestServer()
        defer { server.stop() }
        let body = Array("payload for \(method)".utf8)
        let response = try testClient().send(HTTPClientRequest(
            method: method, url: server.url("/echo"), headers: ["Content-Type": "text/plain"], body: body))
        #expect(response.headers["X-Echo-Method"] == method.rawValue)
        #expect(response.headers["X-Echo-Content-Type"] == "text/plain")
        #expect(response.body == body)
    }

    @Test func deleteAndPutWithoutBodySendNothing() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = testClient()
        let delete = try client.send(HTTPClientRequest(method: .delete, url: server.url("/echo")))
        #expect(delete.headers["X-Echo-Method"] == "DELETE")
        #expect(delete.headers["X-Echo-Body-Length"] == "0")
        let put = try client.send(HTTPClientRequest(method: .put, url: server.url("/echo")))
        #expect(put.headers["X-Echo-Method"] == "PUT")
        #expect(put.headers["X-Echo-Body-Length"] == "0")
        // No body, so no label: libcurl's form-urlencoded default is suppressed.
        #expect(put.headers["X-Echo-Content-Type"] == "(none)")
    }

    @Test func headReturnsHeadersWithoutBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try testClient().send(HTTPClientRequest(method: .head, url: server.url("/large?bytes=5000")))
        #expect(response.status == 200)
        #expect(response.headers["Content-Length"] == "5000")
        #expect(response.body.isEmpty)
    }

    @Test func binaryBodiesArriveByteForByte() throws {
        let server = try TestServer()
        defer { server.stop() }
        // Every byte value, NUL included, and 1 MiB long: CURLOPT_POSTFIELDSIZE_LARGE is set,
        // so nothing is cut at a NUL.
        let body = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let response = try testClient().send(HTTPClientRequest(
            method: .post, url: server.url("/echo"), headers: ["Content-Type": "application/octet-stream"], body: body))
        #expect(response.headers["X-Echo-Body-Length"] == String(body.count))
        #expect(response.body == body)
    }

    @Test func largeResponsesArriveWhole() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try testClient().send(HTTPClientRequest(url: server.url("/large?bytes=\(1 << 20)")))
        #expect(response.status == 200)
        #expect(response.body.count == 1 << 20)
        #expect(response.body == patternBody(count: 1 << 20))
    }

    @Test(arguments: [400, 401, 404, 409, 422, 500, 503])
    func errorStatusesAreResponsesNotErrors(status: Int) throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try testClient().send(HTTPClientRequest(url: server.url("/status/\(status)")))
        #expect(response.status == status)
        #expect(!response.isSuccess)
        #expect(response.bodyText == "status \(status)")
    }

    @Test func redirectsAreReturnedNotFollowed() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try testClient().send(HTTPClientRequest(method: .post, url: server.url("/redirect"),
                                                              body: Array("event".utf8)))
        #expect(response.status == 302)
        #expect(response.headers["Location"] == "/echo")
        #expect(response.bodyText == "moved")
        #expect(server.hits("/echo") == 0)
    }

    @Test func redirectsAreFollowedOnlyWhenConfigured() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = testClient { $0.followRedirects = true }
        let response = try client.send(HTTPClientRequest(url: server.url("/redirect")))
        #expect(response.status == 200)
        #expect(response.headers["X-Echo-Method"] == "GET")
        #expect(response.headers["Location"] == nil)
        #expect(server.hits("/echo") == 1)
    }

    @Test func consecutiveRequestsReuseTheClient() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = testClient()
        for index in 0..<20 {
            let response = try client.send(HTTPClientRequest(method: .post, url: server.url("/echo"),
                                                            body: Array("n=\(index)".utf8)))
            #expect(response.bodyText == "n=\(index)")
        }
    }
}
