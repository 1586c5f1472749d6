import HTTPClient
import Testing

@Suite struct FailureTests {
    @Test func refusedConnectionIsCouldNotConnectAndRetryable() {
        let port = refusedPort()
        let error = #expect(throws: HTTPClientError.self) {
            try testClient().send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/"))
        }
        #expect(error?.kind == .couldNotConnect)
        #expect(error?.curlCode == 7)
        #expect(error?.isRetryable == true)
    }

    @Test func unresolvableHostIsCouldNotResolve() {
        // .invalid is reserved (RFC 6761): it never resolves.
        let error = #expect(throws: HTTPClientError.self) {
            try testClient().send(HTTPClientRequest(url: "http://no-such-host.invalid/"))
        }
        #expect(error?.kind == .couldNotResolve)
        #expect(error?.isRetryable == true)
    }

    @Test func silentServerTimesOutWithinTheConfiguredTimeout() {
        let listener = SilentListener()
        let client = testClient { $0.timeout = .milliseconds(400) }
        let start = ContinuousClock.now
        let error = #expect(throws: HTTPClientError.self) {
            try client.send(HTTPClientRequest(url: listener.url))
        }
        let elapsed = ContinuousClock.now - start
        #expect(error?.kind == .timedOut)
        #expect(error?.isRetryable == true)
        #expect(elapsed >= .milliseconds(350))
        #expect(elapsed < .seconds(3))
    }

    @Test func requestTimeoutOverridesTheClientDefault() {
        let listener = SilentListener()
        let start = ContinuousClock.now
        let error = #expect(throws: HTTPClientError.self) {
            try testClient().send(HTTPClientRequest(url: listener.url, timeout: .milliseconds(200)))
        }
        #expect(error?.kind == .timedOut)
        #expect(ContinuousClock.now - start < .seconds(3))
    }

    @Test func responseLargerThanTheCapIsRefusedFromItsContentLength() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = testClient { $0.maxResponseBytes = 64 * 1024 }
        let error = #expect(throws: HTTPClientError.self) {
            try client.send(HTTPClientRequest(url: server.url("/large?bytes=\(1 << 20)")))
        }
        #expect(error?.kind == .responseTooLarge)
        #expect(error?.isRetryable == false)
        // Exactly at the cap is fine.
        let fits = try client.send(HTTPClientRequest(url: server.url("/large?bytes=\(64 * 1024)")))
        #expect(fits.body.count == 64 * 1024)
    }

    @Test func responseLargerThanTheCapIsAbortedWithoutContentLength() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let peer = try PythonPeer(directory: directory.url)
        defer { peer.stop() }
        let client = testClient { $0.maxResponseBytes = 100_000 }
        let error = #expect(throws: HTTPClientError.self) {
            try client.send(HTTPClientRequest(url: "http://127.0.0.1:\(peer.port)/unsized?bytes=\(1 << 20)"))
        }
        #expect(error?.kind == .responseTooLarge)
        #expect(error?.detail.contains("100000") == true)
        let fits = try client.send(HTTPClientRequest(url: "http://127.0.0.1:\(peer.port)/unsized?bytes=100000"))
        #expect(fits.body.count == 100_000)
    }

    @Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/passwd", "gopher://127.0.0.1/", "127.0.0.1/echo",
                      "http://127.0.0.1/a b", "http://127.0.0.1/\r\nX-Injected: 1", "http://[::1"])
    func unusableURLsAreInvalidAndNotRetryable(url: String) {
        let error = #expect(throws: HTTPClientError.self) {
            try testClient().send(HTTPClientRequest(url: url))
        }
        #expect(error?.kind == .invalidURL)
        #expect(error?.isRetryable == false)
    }

    @Test func headerInjectionIsRefusedWithoutEchoingTheValue() {
        let request = HTTPClientRequest(url: "http://127.0.0.1:1/",
                                        headers: ["Authorization": "Bearer SECRET\r\nX-Evil: 1"])
        let error = #expect(throws: HTTPClientError.self) { try testClient().send(request) }
        #expect(error?.kind == .invalidRequest)
        #expect(error.map { !"\($0)".contains("SECRET") } == true)
        #expect(error?.description.contains("Authorization") == true)
    }

    @Test func invalidHeaderNamesAndBodiesOnGetAreRefused() {
        let badName = #expect(throws: HTTPClientError.self) {
            try testClient().send(HTTPClientRequest(url: "http://127.0.0.1:1/", headers: ["Bad Name": "x"]))
        }
        #expect(badName?.kind == .invalidRequest)
        let getWithBody = #expect(throws: HTTPClientError.self) {
            try testClient().send(HTTPClientRequest(method: .get, url: "http://127.0.0.1:1/", body: [1]))
        }
        #expect(getWithBody?.kind == .invalidRequest)
    }

    @Test func errorDescriptionsCarryNoSecrets() {
        let port = refusedPort()
        let request = HTTPClientRequest(
            method: .post,
            url: "http://apiuser:PASSWORD-in-url@127.0.0.1:\(port)/api/?token=QUERY-SECRET-1#FRAGMENT-2",
            headers: ["Authorization": "Bearer HEADER-SECRET-3", "X-Token": "TOKEN-SECRET-4"],
            body: Array("token=BODY-SECRET-5&content=record".utf8))
        let error = #expect(throws: HTTPClientError.self) { try testClient().send(request) }
        let texts = [error?.description ?? "", error?.detail ?? "", error?.redactedURL ?? "", String(describing: error)]
        for secret in ["PASSWORD-in-url", "QUERY-SECRET-1", "FRAGMENT-2", "HEADER-SECRET-3", "TOKEN-SECRET-4",
                       "BODY-SECRET-5", "token="] {
            for text in texts { #expect(!text.contains(secret), "\(secret) leaked") }
        }
        #expect(error?.redactedURL == "http://127.0.0.1:\(port)/api/")
        #expect(error?.description.hasPrefix("POST http://127.0.0.1:\(port)/api/ failed: could not connect") == true)
    }

    @Test func configuredProxyIsUsedInsteadOfConnectingDirectly() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = testClient { $0.proxy = "http://127.0.0.1:\(refusedPort())" }
        let error = #expect(throws: HTTPClientError.self) {
            try client.send(HTTPClientRequest(url: server.url("/echo")))
        }
        #expect(error?.kind == .couldNotConnect)
        #expect(server.hits("/echo") == 0)
    }
}
