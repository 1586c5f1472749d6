import Foundation
import HTTPClient
import Testing

/// Against a Python TLS server whose certificate a throwaway CA signed.
@Suite struct TLSTests {
    /// A running TLS peer with its certificates, cleaned up by `stop()`.
    private struct Fixture {
        let directory: TemporaryDirectory
        let certificates: TestCertificates
        let peer: PythonPeer

        init(subjectAltName: String = "IP:127.0.0.1,DNS:localhost") throws {
            directory = try TemporaryDirectory()
            certificates = try TestCertificates(in: directory.url)
            let server = try certificates.serverCertificate(name: "server", subjectAltName: subjectAltName)
            peer = try PythonPeer(directory: directory.url, certificate: server.certificate, key: server.key)
        }

        var url: String { "https://127.0.0.1:\(peer.port)/hello" }

        func stop() {
            peer.stop()
            directory.remove()
        }
    }

    @Test func serverSignedByTheConfiguredCAIsTrusted() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let client = testClient { $0.caFile = fixture.certificates.caFile.path }
        let response = try client.send(HTTPClientRequest(url: fixture.url))
        #expect(response.status == 200)
        #expect(response.bodyText == "hello from the test peer")
        // A second request on the same client (pooled handle, reused connection) still works.
        #expect(try client.send(HTTPClientRequest(url: fixture.url)).status == 200)
    }

    @Test func privateCAIsRejectedAgainstTheSystemStore() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let error = #expect(throws: HTTPClientError.self) {
            try testClient().send(HTTPClientRequest(url: fixture.url))
        }
        #expect(error?.kind == .tlsFailure)
        #expect(error?.curlCode == 60) // CURLE_PEER_FAILED_VERIFICATION
        #expect(error?.isRetryable == false)
    }

    @Test func certificateForAnotherHostIsRejected() throws {
        let fixture = try Fixture(subjectAltName: "DNS:wrong.example.invalid")
        defer { fixture.stop() }
        let client = testClient { $0.caFile = fixture.certificates.caFile.path }
        let error = #expect(throws: HTTPClientError.self) {
            try client.send(HTTPClientRequest(url: fixture.url))
        }
        #expect(error?.kind == .tlsFailure)
        #expect(error?.isRetryable == false)
    }

    @Test func missingCAFileIsATLSFailure() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let client = testClient { $0.caFile = fixture.directory.url.appendingPathComponent("absent.pem").path }
        let error = #expect(throws: HTTPClientError.self) {
            try client.send(HTTPClientRequest(url: fixture.url))
        }
        #expect(error?.kind == .tlsFailure)
    }

    @Test func tlsErrorDescriptionsCarryNoSecrets() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let request = HTTPClientRequest.formURLEncoded(
            url: "https://127.0.0.1:\(fixture.peer.port)/api/?token=QUERY-SECRET-1",
            fields: [("token", "BODY-SECRET-2")], headers: ["Authorization": "Bearer HEADER-SECRET-3"])
        let error = #expect(throws: HTTPClientError.self) { try testClient().send(request) }
        let description = error.map { "\($0)" } ?? ""
        #expect(description.contains("TLS failure"))
        for secret in ["QUERY-SECRET-1", "BODY-SECRET-2", "HEADER-SECRET-3"] {
            #expect(!description.contains(secret))
        }
    }
}
