import Foundation
import HTJSON
import HTTPClient

/// `scripts/webpush-receiver`: a Web Push service over HTTPS (a throwaway CA) holding one
/// browser subscription; it verifies each message's VAPID header with py_vapid and decrypts its
/// body with http_ece, records it, and answers as told.
final class WebPushReceiver: @unchecked Sendable {
    let peer: PeerProcess
    let port: Int
    let caFile: String
    /// The browser's `PushSubscription.toJSON()`.
    let subscription: JSONValue
    private let client: HTTPClient

    init(directory: URL, vapidPublicKey: String) throws {
        peer = try PeerProcess(["python3", Repo.root.appendingPathComponent("scripts/webpush-receiver").path,
                                "--dir", directory.path, "--vapid-key", vapidPublicKey])
        let ready = try peer.line("ready ", timeout: 120)
        guard let port = Int(ready) else { throw TestFailure("webpush-receiver: \(ready)") }
        self.port = port
        caFile = try peer.line("ca ")
        subscription = try JSONParser.parse(Array(try peer.line("subscription ").utf8))
        client = HTTPClient(configuration: HTTPClientConfiguration(caFile: caFile))
    }

    deinit { peer.kill() }

    /// The next `count` messages are answered with `status` (and `Retry-After`), each held
    /// `hold` seconds first (a slow service).
    func answer(_ status: Int, retryAfter: String? = nil, count: Int = 1, hold: Double = 0) throws {
        var body = JSONObject([("status", .number(Double(status))), ("count", .number(Double(count))), ("hold", .number(hold))])
        if let retryAfter { body["retryAfter"] = .string(retryAfter) }
        let r = try client.send(.json(method: .post, url: "https://127.0.0.1:\(port)/_answer", body: JSONSerializer.string(.object(body))))
        guard r.status == 204 else { throw TestFailure("webpush-receiver /_answer: \(r.status)") }
    }

    struct Message {
        /// The endpoint's path (which subscription it was sent to).
        let path: String
        let headers: JSONObject
        let status: Int
        let payload: JSONObject?
        let claims: JSONObject?
        let error: String?
        let at: Double
        /// Messages the receiver was handling when this one arrived, itself included.
        let concurrent: Int
        var topic: String? { if case .string(let t)? = headers["topic"] { t } else { nil } }
        func payload(_ key: String) -> String? { if case .string(let s)? = payload?[key] { s } else { nil } }
    }

    func messages() throws -> [Message] {
        let r = try client.send(HTTPClientRequest(method: .get, url: "https://127.0.0.1:\(port)/_messages"))
        guard case .array(let all) = try JSONParser.parse(r.body) else { throw TestFailure("webpush-receiver /_messages") }
        return all.compactMap { v in
            guard case .object(let o) = v, case .object(let headers)? = o["headers"], case .number(let status)? = o["status"],
                  case .number(let at)? = o["at"], case .string(let path)? = o["path"] else { return nil }
            var payload: JSONObject?, claims: JSONObject?, error: String?
            if case .object(let p)? = o["payload"] { payload = p }
            if case .object(let c)? = o["claims"] { claims = c }
            if case .string(let e)? = o["error"] { error = e }
            var concurrent = 0
            if case .number(let n)? = o["concurrent"] { concurrent = Int(n) }
            return Message(path: path, headers: headers, status: Int(status), payload: payload, claims: claims, error: error, at: at,
                           concurrent: concurrent)
        }
    }
}
