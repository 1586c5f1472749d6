import Foundation
import Glibc
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The application value (docs/product.md, third round, R): built from configuration, logger
/// and clock, it binds no socket; one `handle` serves the API and both page families, so tests
/// drive pages in-process as well as the API.
@Suite struct ApplicationTests {
    /// A TCP port held by this test: a daemon configured for it could not listen.
    static func occupiedPort() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 1) == 0 else { throw TestError("cannot hold a port") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test func theApplicationIsBuiltWithoutBindingItsPortAndServesTheAPIAndThePagesInProcess() throws {
        let held = try Self.occupiedPort()
        defer { close(held.fd) }
        let h = try InProcessApplication { $0.listenPort = held.port }
        #expect(h.send(.get, "/v1/patients").status == 200, "the API")
        let signIn = h.client.send(.get, "/console/login")
        #expect(signIn.status == .ok && (signIn.bodyText ?? "").contains("<form method=\"post\" action=\"/console/login\""), "a console page")
        let activate = h.client.send(.get, "/app/activate")
        #expect(activate.status == .ok && (activate.bodyText ?? "").contains("action=\"/app/activate\""), "a check-in page")
        let metrics = h.client.send(.get, "/metrics").bodyText ?? ""
        #expect(metrics.contains("hyponatrack_database_pending_writes"), "the application's own metrics")
        #expect(!metrics.contains("hyponatrack_http_connections_open"), "no server received this request: no connection figures")
        let openAPI = h.client.send(.get, "/openapi.json").bodyText ?? ""
        #expect(openAPI.contains("\"/openapi.json\"") && openAPI.contains("\"/metrics\""), "the document describes its own route too")
    }
}
