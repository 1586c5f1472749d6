import HTTPClient
import HTTPServer
import Glibc
import Synchronization

/// A real libmicrohttpd server on an ephemeral loopback port, the plain-HTTP peer:
///
/// - `/echo`: answers 200 with the request body as the body, and reports what it saw in
///   `X-Echo-*` headers (method, content type, user agent, `X-Token`, body length), plus
///   `X-Multi` twice;
/// - `/status/NNN`: answers status NNN with the body "status NNN";
/// - `/redirect`: answers 302 with `Location: /echo`;
/// - `/hold?ms=N`: answers 200 after N milliseconds (a slow service; 4 handler threads);
/// - `/large?bytes=N`: N bytes of ``patternBody(count:)``.
final class TestServer: Sendable {
    let server: HTTPServer
    private let paths: PathLog

    init() throws {
        let paths = PathLog()
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, handlerThreads: 4,
                                                    maxBodyBytes: 2 * 1024 * 1024)
        configuration.connectionTimeoutSeconds = 10
        self.server = try HTTPServer(configuration: configuration) { request in
            paths.append(request.path)
            return TestServer.route(request)
        }
        self.paths = paths
    }

    /// How many requests reached `path`.
    func hits(_ path: String) -> Int { paths.count(of: path) }

    var port: UInt16 { server.boundPort }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func stop() { server.stop(timeout: .seconds(5)) }

    private static func route(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        if path == "/echo" {
            var headers: HTTPHeaders = [
                "X-Echo-Method": request.method.rawValue,
                "X-Echo-Content-Type": request.headers["Content-Type"] ?? "(none)",
                "X-Echo-User-Agent": request.headers["User-Agent"] ?? "(none)",
                "X-Echo-Token": request.headers["X-Token"] ?? "(none)",
                "X-Echo-Body-Length": String(request.body.count),
                "Content-Type": "application/octet-stream",
            ]
            headers.add(name: "X-Multi", value: "one")
            headers.add(name: "X-Multi", value: "two")
            return HTTPResponse(status: .ok, headers: headers, body: request.body)
        }
        if path.hasPrefix("/status/"), let code = Int(path.dropFirst("/status/".count)) {
            return .text(HTTPStatus(rawValue: code), "status \(code)")
        }
        if path == "/hold", let ms = request.query["ms"].flatMap(Int.init) {
            usleep(UInt32(ms) * 1000)
            return .text(.ok, "held \(ms) ms")
        }
        if path == "/redirect" {
            return HTTPResponse(status: 302, headers: ["Location": "/echo"], body: Array("moved".utf8))
        }
        if path == "/large", let bytes = request.query["bytes"].flatMap(Int.init) {
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"],
                                body: patternBody(count: bytes))
        }
        return .text(.notFound, "no route")
    }
}

/// The paths the server was asked for, across its handler threads.
final class PathLog: Sendable {
    private let paths = Mutex<[String]>([])
    func append(_ path: String) { paths.withLock { $0.append(path) } }
    func count(of path: String) -> Int { paths.withLock { $0.filter { $0 == path }.count } }
}

/// A deterministic, non-repeating-looking body so a reordered or dropped chunk is caught.
func patternBody(count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ ($0 >> 8)) }
}

/// A client with short timeouts suited to loopback tests.
func testClient(_ adjust: (inout HTTPClientConfiguration) -> Void = { _ in }) -> HTTPClient {
    var configuration = HTTPClientConfiguration(userAgent: "HyponaTrack-Tests", timeout: .seconds(10),
                                                connectTimeout: .seconds(5))
    adjust(&configuration)
    return HTTPClient(configuration: configuration)
}
