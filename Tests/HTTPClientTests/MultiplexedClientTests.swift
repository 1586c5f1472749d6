@testable import HTTPClient
import Testing

/// The multi-handle client against the real libmicrohttpd peer (plain HTTP, so HTTP/1.1: the
/// loop, the per-request answers and the connection cap; HTTP/2 streams are exercised against
/// scripts/apns-emulator by the push integration tests), and `resolvedHost` (CURLOPT_RESOLVE).
@Suite struct MultiplexedClientTests {
    static func client(maxConnections: Int = 4) -> MultiplexedHTTPClient {
        MultiplexedHTTPClient(configuration: HTTPClientConfiguration(userAgent: "HyponaTrack-Tests", timeout: .seconds(10),
                                                                     connectTimeout: .seconds(5)),
                              maxConnections: maxConnections, maxStreams: 10)
    }

    @Test func everyRequestGetsItsOwnAnswerOnceOverAtMostTheConnectionCap() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = Self.client(maxConnections: 3)
        let requests = (0..<150).map { i in
            HTTPClientRequest(method: .post, url: server.url(i % 10 == 0 ? "/status/503" : "/echo"), body: Array("body \(i)".utf8))
        }
        var answers: [Int: HTTPClientResponse] = [:]
        client.send(requests) { i, result in
            #expect(answers[i] == nil, "request \(i) answered twice")
            answers[i] = try? result.get()
        }
        #expect(answers.count == 150)
        for (i, response) in answers {
            if i % 10 == 0 {
                #expect(response.status == 503)
            } else {
                #expect(response.status == 200 && response.bodyText == "body \(i)", "request \(i)")
            }
        }
        #expect((1...3).contains(client.connectionsOpened), "\(client.connectionsOpened) connections")
        // A second batch reuses the open connections.
        let before = client.connectionsOpened
        client.send([HTTPClientRequest(url: server.url("/status/204"))]) { _, result in #expect((try? result.get())?.status == 204) }
        #expect(client.connectionsOpened == before)
    }

    /// A server that speaks HTTP/1.1 takes one request per connection: the client keeps no more
    /// in flight to it than it has connections, so none waits in libcurl's queue with its
    /// timeout running. Twelve requests held 0.6 s each over 2 connections with a 2.5 s timeout:
    /// all queued at once, the last pairs would end 3 s and more after being added and time out;
    /// held outside libcurl, each takes about 0.6 s (1.2 s when it waits to learn the server
    /// does not multiplex).
    @Test func requestsToAnHTTP1ServerWaitForAConnectionOutsideLibcurlSoTheirTimeoutsDoNotRunMeanwhile() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = MultiplexedHTTPClient(configuration: HTTPClientConfiguration(timeout: .milliseconds(2500), connectTimeout: .seconds(1)),
                                           maxConnections: 2, maxStreams: 10)
        #expect(client.window(for: MultiplexedHTTPClient.server(of: server.url("/"))) == 2, "not known to multiplex: one a connection")
        var statuses: [Int: Int] = [:], failures: [String] = []
        client.send((0..<12).map { _ in HTTPClientRequest(url: server.url("/hold?ms=600")) }) { i, result in
            switch result {
            case .success(let r): statuses[i] = r.status
            case .failure(let e): failures.append("\(i): \(e.kind.summary)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(statuses.count == 12 && statuses.values.allSatisfy { $0 == 200 })
        #expect(client.window(for: MultiplexedHTTPClient.server(of: server.url("/"))) == 2, "it answered over HTTP/1.1")
        #expect((1...2).contains(client.connectionsOpened), "\(client.connectionsOpened) connections")
    }

    /// A server that never answers holds up only its own requests: the ones to a server that
    /// answers go on while they wait for their timeout (one slot held for the dead server's next
    /// request used to stop every request behind it).
    @Test func aHangingServerHoldsUpOnlyItsOwnRequests() throws {
        let server = try TestServer()
        defer { server.stop() }
        let hanging = SilentListener()
        let client = MultiplexedHTTPClient(configuration: HTTPClientConfiguration(timeout: .seconds(2), connectTimeout: .seconds(2)),
                                           maxConnections: 2, maxStreams: 10, maxTotalConnections: 8)
        let dead = (0..<4).map { _ in HTTPClientRequest(url: hanging.url) }
        let alive = (0..<6).map { _ in HTTPClientRequest(url: server.url("/status/204")) }
        var order: [Int] = [], answered = 0
        client.send(dead + alive) { i, result in
            order.append(i)
            if (try? result.get())?.status == 204 { answered += 1 }
        }
        #expect(order.count == 10 && answered == 6)
        #expect(Set(order.prefix(6)) == Set(4..<10), "the answering server's requests finished first: \(order)")
    }

    /// The admission's arithmetic: one request per connection to a server not known to
    /// multiplex, `maxStreams` per connection to one that does, and the connections in all.
    @Test func admissionCountsConnectionsPerServerAndInAll() {
        var a = ServerAdmission(maxConnections: 2, maxStreams: 3, maxTotalConnections: 4)
        let h2 = { (s: String) in s == "h2:443" }
        for _ in 0..<2 { #expect(a.mayStart("h1:443", multiplexes: h2)); a.started("h1:443") }
        #expect(!a.mayStart("h1:443", multiplexes: h2), "two connections, one request each")
        for _ in 0..<4 { #expect(a.mayStart("h2:443", multiplexes: h2)); a.started("h2:443") }
        #expect(a.connections(h2) == 4, "2 + ceil(4 / 3)")
        #expect(a.mayStart("h2:443", multiplexes: h2), "a fifth stream fits the second connection")
        a.started("h2:443"); a.started("h2:443")
        #expect(!a.mayStart("h2:443", multiplexes: h2), "six streams fill both connections")
        #expect(!a.mayStart("other:443", multiplexes: h2), "no connection left in all")
        a.finished("h1:443")
        #expect(a.mayStart("other:443", multiplexes: h2))
        a.hold(7, HTTPClientRequest(url: "https://other/"), for: "other:443")
        #expect(a.isHolding("other:443") && a.heldCount == 1 && a.takeHeld("other:443")?.index == 7 && a.heldCount == 0)
    }

    @Test func aServerIsItsHostAndPortWithTheSchemesPortWhenNoneIsWritten() {
        #expect(MultiplexedHTTPClient.server(of: "https://API.push.apple.com/3/device/ab") == "api.push.apple.com:443")
        #expect(MultiplexedHTTPClient.server(of: "https://127.0.0.1:8443/push/x?y#z") == "127.0.0.1:8443")
        #expect(MultiplexedHTTPClient.server(of: "http://example.org") == "example.org:80")
        #expect(MultiplexedHTTPClient.server(of: "https://[::1]/x") == "[::1]:443")
        #expect(MultiplexedHTTPClient.server(of: "https://[::1]:9/x") == "[::1]:9")
        #expect(MultiplexedHTTPClient.server(of: "https://user@host.example:7/x") == "https://user@host.example:7/x",
                "a URL with userinfo (no push service has one; the Web Push policy refuses it) is a server of its own")
    }

    @Test func anInvalidRequestOrAnUnreachableHostFailsOnlyThatRequest() throws {
        let server = try TestServer()
        defer { server.stop() }
        let requests = [HTTPClientRequest(url: server.url("/echo")), HTTPClientRequest(url: "ftp://127.0.0.1/x"),
                        HTTPClientRequest(url: "http://127.0.0.1:\(refusedPort())/x")]
        var results: [Int: Result<HTTPClientResponse, HTTPClientError>] = [:]
        Self.client().send(requests) { i, r in results[i] = r }
        #expect((try? results[0]?.get())?.status == 200)
        if case .failure(let e)? = results[1] { #expect(e.kind == .invalidURL) } else { Issue.record("ftp accepted") }
        if case .failure(let e)? = results[2] { #expect(e.kind == .couldNotConnect) } else { Issue.record("refused port answered") }
    }

    /// `.invalid` never resolves (RFC 6761): the answer can only come through the pinned address.
    @Test func aResolvedHostConnectsToItsAddressesNotToWhatDNSSays() throws {
        let server = try TestServer()
        defer { server.stop() }
        var request = HTTPClientRequest(url: "http://push.pinned.invalid:\(server.port)/status/201")
        request.resolvedHost = ResolvedHost(host: "push.pinned.invalid", port: Int(server.port), addresses: ["127.0.0.1"])
        #expect(try testClient().send(request).status == 201)
        var multiplexed: HTTPClientResponse?
        Self.client().send([request]) { _, r in multiplexed = try? r.get() }
        #expect(multiplexed?.status == 201)
        // Without the pin the name does not resolve.
        request.resolvedHost = nil
        #expect(throws: HTTPClientError.self) { try testClient().send(request) }
    }

    @Test func aPinForAnotherHostOrPortOrANonNumericAddressIsRefusedBeforeAnythingIsSent() throws {
        let server = try TestServer()
        defer { server.stop() }
        for pin in [ResolvedHost(host: "other.invalid", port: Int(server.port), addresses: ["127.0.0.1"]),
                    ResolvedHost(host: "push.pinned.invalid", port: 1, addresses: ["127.0.0.1"]),
                    ResolvedHost(host: "push.pinned.invalid", port: Int(server.port), addresses: ["localhost"]),
                    ResolvedHost(host: "push.pinned.invalid", port: Int(server.port), addresses: [])] {
            var request = HTTPClientRequest(url: "http://push.pinned.invalid:\(server.port)/echo")
            request.resolvedHost = pin
            do {
                _ = try testClient().send(request)
                Issue.record("sent with \(pin)")
            } catch {
                #expect(error.kind == .invalidRequest)
            }
        }
        #expect(server.hits("/echo") == 0)
    }
}
