import Foundation
import HTJSON
import HTTPClient

/// The real OpenID provider (Debian's glewlwyd, started and configured by scripts/oidc-provider)
/// behind the tampering proxy (scripts/oidc-tamper-proxy), which is the issuer the daemon is
/// configured with. `authorize` plays the member's browser at the provider: the password at
/// glewlwyd's login API, then the authorisation URL the daemon sent it to, answered with the
/// redirect back to the daemon's callback carrying `code` and `state`.
final class OIDCRig {
    let directory: URL
    let issuer: String
    let ca: String
    let clientSecretFile: String
    let client: HTTPClient
    private var processes: [Process] = []

    /// The redirect URL registered with the provider (the tests call the callback themselves).
    static let redirectURL = "http://127.0.0.1:9/console/oidc/callback"

    init(alg: String = "RS256") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("oidc-\(UUID().uuidString)")
        let proxyPort = try TestDaemon.freePort()
        let proxyURL = "https://127.0.0.1:\(proxyPort)"
        let provider = try Self.start(["scripts/oidc-provider", "--dir", directory.path, "--redirect-url", Self.redirectURL,
                                       "--post-logout-url", "http://127.0.0.1:9/console/login", "--alg", alg,
                                       "--issuer", proxyURL + "/api/oidc"])
        processes.append(provider.process)
        guard case .object(let info) = try JSONParser.parse(Array(provider.line.utf8)), case .string(let upstream)? = info["url"],
              case .string(let ca)? = info["ca"], case .string(let cert)? = info["cert"], case .string(let key)? = info["key"],
              case .string(let secret)? = info["clientSecretFile"] else { throw TestFailure("oidc-provider said \(provider.line)") }
        self.ca = ca
        clientSecretFile = secret
        issuer = proxyURL + "/api/oidc"
        let proxy = try Self.start(["scripts/oidc-tamper-proxy", "--port", String(proxyPort), "--upstream", upstream,
                                    "--cert", cert, "--key", key, "--ca", ca])
        processes.append(proxy.process)
        client = HTTPClient(configuration: HTTPClientConfiguration(caFile: ca, timeout: .seconds(20)))
    }

    deinit {
        for p in processes.reversed() where !ChildExit.hasExited(p) {
            p.terminate()
            ChildExit.wait(p)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts a tool of scripts/ and waits for its first line on stdout (it is ready then).
    static func start(_ arguments: [String]) throws -> (process: Process, line: String) {
        let p = Process()
        p.executableURL = Repo.root.appendingPathComponent(arguments[0])
        p.arguments = Array(arguments.dropFirst())
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard !line.isEmpty else { throw TestFailure("\(arguments[0]) did not start") }
        return (p, String(decoding: line, as: UTF8.self))
    }

    /// What the proxy alters from now on (`scripts/oidc-tamper-proxy`'s modes).
    func tamper(_ mode: String) throws {
        let r = try client.send(HTTPClientRequest(method: .put, url: issuer.replacingOccurrences(of: "/api/oidc", with: "/__mode/\(mode)")))
        guard r.status == 204 else { throw TestFailure("proxy mode \(mode): \(r.status)") }
    }

    /// The member signs in at the provider and is sent back: the callback URL (with `code` and
    /// `state`, or `error`) the provider redirects the browser to.
    func authorize(_ location: String, user: String, password: String) throws -> URLComponents {
        let base = issuer.replacingOccurrences(of: "/api/oidc", with: "")
        let login = try client.send(.json(method: .post, url: base + "/api/auth/", body: #"{"username": "\#(user)", "password": "\#(password)"}"#))
        guard login.status == 200, let set = login.headers["set-cookie"] else { throw TestFailure("glewlwyd login of \(user): \(login.status)") }
        var headers = HTTPHeaders()
        headers.add(name: "Cookie", value: String(set.split(separator: ";")[0]))
        // glewlwyd's login page continues the request with g_continue once the session is there.
        let r = try client.send(HTTPClientRequest(method: .get, url: location + "&g_continue", headers: headers))
        guard r.status == 302, let back = r.headers["location"], back.hasPrefix(Self.redirectURL), let url = URLComponents(string: back) else {
            throw TestFailure("authorisation for \(user): \(r.status) \(r.headers["location"] ?? "")")
        }
        return url
    }
}
