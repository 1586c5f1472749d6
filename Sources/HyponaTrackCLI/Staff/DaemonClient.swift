import Foundation
import HTJSON
import HTTPClient

/// The CLI's connection to the daemon: server URL from `--server` or the environment, the staff
/// token as `GlobalOptions.token` resolved it, JSON in and out, and the docs/product.md exit
/// codes for every failure.
struct DaemonClient {
    let server: String
    let token: String?
    let http: HTTPClient

    /// A failure already explained to the user, with its exit code.
    struct Failure: Error {
        let exitCode: Int32
        let message: String
    }

    init(server: String?, token: String?) {
        let env = ProcessInfo.processInfo.environment
        var base = server ?? env["HYPONATRACK_SERVER"] ?? "http://127.0.0.1:8750"
        while base.hasSuffix("/") { base.removeLast() }
        self.server = base
        self.token = token
        CurlRuntime.initialize()
        http = HTTPClient(configuration: HTTPClientConfiguration(caFile: env["HYPONATRACK_CA_FILE"]))
    }

    func get(_ path: String) throws(Failure) -> JSONValue { try send(.get, path, body: nil) }
    func post(_ path: String, _ body: JSONValue = .object(JSONObject())) throws(Failure) -> JSONValue { try send(.post, path, body: body) }
    func patch(_ path: String, _ body: JSONValue) throws(Failure) -> JSONValue { try send(.patch, path, body: body) }
    func put(_ path: String, _ body: JSONValue) throws(Failure) -> JSONValue { try send(.put, path, body: body) }
    func delete(_ path: String) throws(Failure) -> JSONValue { try send(.delete, path, body: nil) }

    func send(_ method: HTTPClientRequest.Method, _ path: String, body: JSONValue?) throws(Failure) -> JSONValue {
        let response = try exchange(method, path, body: body, accept: "application/json")
        return (try? JSONParser.parse(response.body)) ?? .null
    }

    /// A GET whose answer is a file (CSV): its bytes as the server sent them.
    func download(_ path: String, accept: String) throws(Failure) -> [UInt8] {
        try exchange(.get, path, body: nil, accept: accept).body
    }

    /// A POST of the file at `file` as `contentType` (imports), streamed from disk as it is
    /// sent (an export is hundreds of MB); the answer is JSON.
    func upload(_ path: String, file: String, contentType: String) throws(Failure) -> JSONValue {
        var headers = try authorization(accept: "application/json")
        headers.add(name: "Content-Type", value: contentType)
        // An export can take a while to send, read and reduce on the server.
        var request = HTTPClientRequest(method: .post, url: server + path, headers: headers, timeout: .seconds(1800))
        request.bodyFile = file
        let response = try exchange(request)
        return (try? JSONParser.parse(response.body)) ?? .null
    }

    private func authorization(accept: String) throws(Failure) -> HTTPHeaders {
        guard let token, !token.isEmpty else {
            throw Failure(exitCode: ExitCode.permission, message: "no staff token: pass --token-file PATH or --token TOKEN, or set HYPONATRACK_TOKEN")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "Bearer \(token)")
        headers.add(name: "Accept", value: accept)
        return headers
    }

    /// One request; a refusal becomes a `Failure` with the server's message and the exit code.
    private func exchange(_ method: HTTPClientRequest.Method, _ path: String, body: JSONValue?,
                          accept: String) throws(Failure) -> HTTPClientResponse {
        let headers = try authorization(accept: accept)
        return try exchange(HTTPClientRequest.json(method: method, url: server + path, body: body.map { JSONSerializer.string($0) },
                                                   headers: headers))
    }

    private func exchange(_ request: HTTPClientRequest) throws(Failure) -> HTTPClientResponse {
        let response: HTTPClientResponse
        do { response = try http.send(request) } catch {
            throw Failure(exitCode: ExitCode.unavailable, message: "cannot reach the server at \(server): \(error.kind.rawValue)")
        }
        if response.isSuccess { return response }
        let json = (try? JSONParser.parse(response.body)) ?? .null
        var message = "the server answered \(response.status)"
        if case .object(let o) = json, case .object(let e)? = o["error"] {
            var text = ""
            if case .string(let f)? = e["field"] { text += "\(f): " }
            if case .string(let m)? = e["message"] { text += m }
            if case .string(let c)? = e["code"] { text += " (\(c))" }
            // The daemon's message quotes what a file or a client sent: one line, terminal-safe.
            message = TerminalText.escaped(text)
        }
        switch response.status {
        case 401, 403: throw Failure(exitCode: ExitCode.permission, message: message)
        default: throw Failure(exitCode: ExitCode.failure, message: message)
        }
    }

    /// Percent-encodes one path segment.
    static func segment(_ s: String) -> String { FormURLEncoding.percentEncode(s) }
}
