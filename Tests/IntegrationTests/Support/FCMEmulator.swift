import Foundation
import HTJSON
import HTTPClient

/// `scripts/fcm-emulator`: FCM HTTP v1 over HTTPS (a throwaway CA) with its own service account;
/// PyJWT verifies each token request's RS256 assertion, each send must carry a token it gave.
final class FCMEmulator: @unchecked Sendable {
    let peer: PeerProcess
    let port: Int
    let caFile: String
    let accountFile: String
    private let client: HTTPClient

    init(directory: URL) throws {
        peer = try PeerProcess(["python3", Repo.root.appendingPathComponent("scripts/fcm-emulator").path, "--dir", directory.path])
        let ready = try peer.line("ready ", timeout: 120)
        guard let port = Int(ready) else { throw TestFailure("fcm-emulator: \(ready)") }
        self.port = port
        caFile = try peer.line("ca ")
        accountFile = try peer.line("account ")
        client = HTTPClient(configuration: HTTPClientConfiguration(caFile: caFile))
    }

    deinit { peer.kill() }

    var url: String { "https://127.0.0.1:\(port)" }

    func control(_ path: String, _ body: JSONValue = [:]) throws {
        let r = try client.send(.json(method: .post, url: url + path, body: JSONSerializer.string(body)))
        guard r.status == 204 else { throw TestFailure("fcm-emulator \(path): \(r.status)") }
    }

    func get(_ path: String) throws -> [JSONObject] {
        let r = try client.send(HTTPClientRequest(method: .get, url: url + path))
        guard case .array(let all) = try JSONParser.parse(r.body) else { throw TestFailure("fcm-emulator \(path)") }
        return all.compactMap { if case .object(let o) = $0 { o } else { nil } }
    }

    /// Each send: its status, the emulator's objection (nil when it found none), `message`,
    /// the sends the emulator was handling when it arrived (itself included), and when it arrived.
    func messages() throws -> [(status: Int, error: String?, message: JSONObject?, concurrent: Int, at: Double)] {
        try get("/_messages").map { o in
            var status = 0, error: String?, message: JSONObject?, concurrent = 0, at = 0.0
            if case .number(let n)? = o["status"] { status = Int(n) }
            if case .string(let e)? = o["error"] { error = e }
            if case .object(let m)? = o["body"] { message = m }
            if case .number(let n)? = o["concurrent"] { concurrent = Int(n) }
            if case .number(let n)? = o["at"] { at = n }
            return (status, error, message, concurrent, at)
        }
    }
}

/// `scripts/apns-emulator`: Apple's provider API over HTTP/2 and TLS (h2 in ALPN only); PyJWT
/// verifies each provider token against the `.p8` key's public half; control over HTTP/1.1.
final class APNsEmulator: @unchecked Sendable {
    let peer: PeerProcess
    let port: Int
    let controlPort: Int
    let caFile: String

    init(directory: URL, keyFile: String, keyId: String, teamId: String, topic: String) throws {
        peer = try PeerProcess(["python3", Repo.root.appendingPathComponent("scripts/apns-emulator").path, "--dir", directory.path,
                                "--key", keyFile, "--key-id", keyId, "--team-id", teamId, "--topic", topic])
        let ready = try peer.line("ready ", timeout: 300)
        guard let port = Int(ready), let control = Int(try peer.line("control ")) else { throw TestFailure("apns-emulator: \(ready)") }
        self.port = port
        controlPort = control
        caFile = try peer.line("ca ")
    }

    deinit { peer.kill() }

    func answer(_ body: JSONValue) throws { try control("/_answer", body) }

    /// Holds each answer `ms` milliseconds (a slow service).
    func pace(ms: Double) throws { try control("/_pace", ["ms": .number(ms)]) }

    private func control(_ path: String, _ body: JSONValue) throws {
        let r = try HTTPClient().send(.json(method: .post, url: "http://127.0.0.1:\(controlPort)\(path)", body: JSONSerializer.string(body)))
        guard r.status == 204 else { throw TestFailure("apns-emulator \(path): \(r.status)") }
    }

    /// `GET /_stats`: requests, statuses, repeats, connections, open, maxOpen, firstAt, lastAt.
    func stats() throws -> JSONObject {
        let r = try HTTPClient().send(HTTPClientRequest(method: .get, url: "http://127.0.0.1:\(controlPort)/_stats"))
        guard case .object(let o) = try JSONParser.parse(r.body) else { throw TestFailure("apns-emulator /_stats") }
        return o
    }

    /// Each request: the device token, its status, the emulator's objection, headers, body, when
    /// it was answered (epoch seconds) and the serial number of the connection it came on.
    func messages() throws -> [(token: String, status: Int, error: String?, headers: JSONObject, body: String, at: Double,
                                connection: Int)] {
        let r = try HTTPClient().send(HTTPClientRequest(method: .get, url: "http://127.0.0.1:\(controlPort)/_messages"))
        guard case .array(let all) = try JSONParser.parse(r.body) else { throw TestFailure("apns-emulator /_messages") }
        return all.compactMap { v in
            guard case .object(let o) = v, case .string(let token)? = o["token"], case .number(let status)? = o["status"],
                  case .object(let headers)? = o["headers"], case .string(let body)? = o["body"], case .number(let at)? = o["at"],
                  case .number(let connection)? = o["connection"] else {
                return nil
            }
            var error: String?
            if case .string(let e)? = o["error"] { error = e }
            return (token, Int(status), error, headers, body, at, Int(connection))
        }
    }
}
