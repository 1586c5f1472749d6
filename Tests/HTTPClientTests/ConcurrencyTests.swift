import Dispatch
import Foundation
import HTTPClient
import Synchronization
import Testing

@Suite struct ConcurrencyTests {
    @Test func sixteenThreadsSendingAtOnceAllGetTheirOwnAnswers() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = testClient()
        let results = Mutex<[Int: String]>([:])
        let failures = Mutex<[String]>([])
        let finished = DispatchGroup()
        for index in 0..<16 {
            finished.enter()
            let thread = Thread {
                defer { finished.leave() }
                do {
                    let body = Array("request \(index) ".utf8) + patternBody(count: 10_000 + index)
                    let response = try client.send(HTTPClientRequest(method: .post, url: server.url("/echo"), body: body))
                    if response.body == body {
                        results.withLock { $0[index] = response.headers["X-Echo-Body-Length"] }
                    } else {
                        failures.withLock { $0.append("request \(index): wrong body") }
                    }
                } catch {
                    failures.withLock { $0.append("request \(index): \(error)") }
                }
            }
            thread.start()
        }
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect(failures.withLock { $0 } == [])
        let lengths = results.withLock { $0 }
        #expect(lengths.count == 16)
        for index in 0..<16 {
            #expect(lengths[index] == String("request \(index) ".utf8.count + 10_000 + index))
        }
    }

    @Test func asyncSendWorksFromAnActor() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let sync = SyncActor(client: testClient())
        let bodies = try await sync.postAll(url: server.url("/echo"), count: 8)
        #expect(bodies == (0..<8).map { "record \($0)" })
    }

    @Test func asyncSendReportsTransportErrorsTyped() async {
        let port = refusedPort()
        do {
            _ = try await testClient().send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/"))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .couldNotConnect)
        }
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async {
        let listener = SilentListener()
        let client = testClient { $0.timeout = .seconds(30) }
        let url = listener.url
        let start = ContinuousClock.now
        let task = Task { () async -> Result<HTTPClientResponse, HTTPClientError> in
            do throws(HTTPClientError) {
                return .success(try await client.send(HTTPClientRequest(url: url)))
            } catch {
                return .failure(error)
            }
        }
        // Cancel once the request is really in flight (its connection waits in the backlog).
        // Poll without blocking a cooperative thread: the task itself needs one to start, and on a
        // 2-core machine the pool is small. The bound is generous because under a full parallel
        // run other suites can hold both cooperative threads for many seconds (CI saw > 10 s);
        // it costs nothing when the connection arrives at once. A fresh clone's first run held the
        // pool for the whole 135 s of the parallel run (blocking integration tests occupy both
        // cooperative threads), so the bound is the run's, not a guess at the others' length.
        let deadline = ContinuousClock.now + .seconds(900)
        while !listener.hasPendingConnection && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        #expect(listener.hasPendingConnection)
        task.cancel()
        let result = await task.value
        #expect(throws: HTTPClientError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.kind == .cancelled) }
        // No wall-clock bound here: under a full parallel test run the cooperative pool can be
        // busy for a long time before this task resumes. `.cancelled` (not `.timedOut` after the
        // 30 s limit) is the proof that cancelling aborted the transfer.
        _ = start
    }
}

/// An actor that awaits the client, as the REDCap sync will.
actor SyncActor {
    let client: HTTPClient
    init(client: HTTPClient) { self.client = client }

    func postAll(url: String, count: Int) async throws(HTTPClientError) -> [String] {
        var bodies: [String] = []
        for index in 0..<count {
            let response = try await client.send(.formURLEncoded(url: url, fields: [("record", "\(index)")]))
            bodies.append(response.bodyText.map { $0.replacingOccurrences(of: "=", with: " ") } ?? "")
        }
        return bodies
    }
}
