import Foundation
import HTJSON
import HyponaTrackCore
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

// MARK: - Peers and fixtures

extension HookTransportTests {
    /// Events as the outbox queues them (`{type, id, timestamp, data}`, compact JSON).
    enum Fixture {
        static func alertEvent(
            id: String, type: String = "alert.opened", level: String = "red", kind: String = "evaluation", tier: Int? = 0,
            reasons: [JSONValue] = [["code": "confusion", "level": "red", "value": 1, "threshold": 1],
                                    ["code": "sodium_low", "level": "red", "value": 11, "threshold": 9.9]],
            extra: [String: JSONValue] = [:]
        ) -> (event: JSONValue, body: [UInt8]) {
            var data = JSONObject([("alertId", 42), ("studyId", "HT-001"), ("date", "2026-03-09"), ("pod", 7), ("level", .string(level)),
                                   ("kind", .string(kind)), ("reasons", .array(reasons)), ("riskClass", "high"),
                                   ("tier", tier.map { .int($0) } ?? .null), ("state", "open")])
            for (key, value) in extra.sorted(by: { $0.key < $1.key }) { data[key] = value }
            let event: JSONValue = ["type": .string(type), "id": .string(id), "timestamp": "2026-03-09T08:00:00.000Z", "data": .object(data)]
            return (event, JSONSerializer.bytes(event))
        }

        static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

        /// The shipped rules, which the e-mail text is worded under unless a test changes them.
        static var rules: RuleSet { MapperFixture.shipped }

        /// An IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT".
        static func httpDate(_ seconds: Int64) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }

        static func isDeadOrZombie(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            // "pid (comm) S …": the state follows the last ")".
            guard let close = stat.lastIndex(of: ")") else { return true }
            return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
        }

        /// Polls `condition` until it holds or `timeout` passes; a condition with a deadline, not a sleep.
        static func eventually(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) throws -> Bool {
            let clock = ContinuousClock()
            let deadline = clock.now + timeout
            while clock.now < deadline {
                if try condition() { return true }
                usleep(10_000)
            }
            return try condition()
        }

        /// Open pipe descriptors of this process: what a leaking command transport would leave
        /// behind (sockets that other tests open and close meanwhile do not count).
        static func openPipes() -> Int {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return fds.filter { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"))?.hasPrefix("pipe:") == true
            }.count
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A temporary directory removed when released.
    final class TemporaryDirectory {
        let root: String

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("hooks-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func path(_ name: String) -> String { root + "/" + name }

        /// Writes a file (mode 0644) and returns its path.
        @discardableResult
        func file(_ name: String, _ contents: String) throws -> String {
            try contents.write(toFile: path(name), atomically: true, encoding: .utf8)
            return path(name)
        }

        /// Writes an executable script (mode 0755) and returns its path.
        func script(_ name: String, _ contents: String) throws -> String {
            let p = try file(name, contents + "\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: p)
            return p
        }

        func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(name)))) }
        func text(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }
    }

    /// One of the Python test peers in `scripts/`, started in its own temporary directory; waits
    /// for `ready <port>` (and the `ca PATH` line of `--make-cert`); SIGTERM when released.
    final class ScriptPeer {
        static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts").path

        let directory: TemporaryDirectory
        let port: Int
        let caFile: String?
        private let process: Process

        /// - Parameter arguments: Built from the peer's directory.
        init(_ script: String, arguments: (TemporaryDirectory) -> [String]) throws {
            directory = try TemporaryDirectory()
            let stdout = directory.path("stdout"), stderr = directory.path("stderr")
            _ = FileManager.default.createFile(atPath: stdout, contents: nil)
            _ = FileManager.default.createFile(atPath: stderr, contents: nil)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["python3", Self.scripts + "/" + script] + arguments(directory)
            p.standardOutput = FileHandle(forWritingAtPath: stdout)
            p.standardError = FileHandle(forWritingAtPath: stderr)
            try p.run()
            process = p
            var port: Int?, ca: String?
            _ = try Fixture.eventually(timeout: .seconds(30)) {
                for line in ((try? String(contentsOfFile: stdout, encoding: .utf8)) ?? "").split(separator: "\n") {
                    if line.hasPrefix("ca ") { ca = String(line.dropFirst(3)) }
                    if line.hasPrefix("ready ") { port = Int(line.dropFirst(6)) }
                }
                return port != nil || !p.isRunning
            }
            guard let port else {
                if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
                throw TestFailure("\(script) did not become ready: \((try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "")")
            }
            self.port = port
            caFile = ca
        }

        /// SIGTERM, and SIGKILL if the peer is still there after five seconds (a peer spawned
        /// from a thread that blocks signals would otherwise never see the SIGTERM).
        deinit {
            guard process.isRunning else { return }
            process.terminate()
            if !((try? Fixture.eventually(timeout: .seconds(5)) { !process.isRunning }) ?? false) {
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
        }
    }

    /// `scripts/webhook-receiver` with a fresh secret; deliveries are read from its `--record` file,
    /// faults armed through `/_control` (plain HTTP peers only).
    final class WebhookReceiver {
        let secret: String
        let peer: ScriptPeer
        let tls: Bool

        init(tls: Bool = false) throws {
            let secret = try WebhookSignature.generateSecret()
            self.secret = secret
            self.tls = tls
            peer = try ScriptPeer("webhook-receiver") { dir in
                ["--port", "0", "--secret", secret, "--record", dir.path("deliveries.jsonl")]
                    + (tls ? ["--make-cert", dir.path("tls")] : [])
            }
        }

        var url: String { "\(tls ? "https" : "http")://127.0.0.1:\(peer.port)/hooks/ward" }

        func transport(caFile: String? = nil) -> WebhookTransport {
            WebhookTransport(url: url, secret: WebhookSignature.decodeSecret(secret)!, caFile: caFile)
        }

        func arm(_ control: JSONValue) throws {
            let (status, text) = try LoopbackHTTP.post(port: peer.port, path: "/_control", body: JSONSerializer.string(control))
            guard status == 200 else { throw TestFailure("/_control answered \(status): \(text)") }
        }

        /// Every delivery attempt so far, in arrival order.
        func deliveries() throws -> [JSONObject] {
            let path = peer.directory.path("deliveries.jsonl")
            guard FileManager.default.fileExists(atPath: path) else { return [] }
            return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
                guard case .object(let o) = try JSONParser.parse(String(line)) else { throw TestFailure("not an object: \(line)") }
                return o
            }
        }
    }

    /// `scripts/smtp-receiver` with a throwaway CA, spooling into its directory.
    final class SMTPReceiver {
        let peer: ScriptPeer

        init(tls: String, user: String? = nil, password: String? = nil) throws {
            peer = try ScriptPeer("smtp-receiver") { dir in
                ["--port", "0", "--tls", tls, "--make-cert", dir.path("tls"), "--spool", dir.path("spool")]
                    + (user.map { ["--user", $0] } ?? []) + (password.map { ["--password", $0] } ?? [])
            }
        }

        func transport(scheme: String, username: String?, password: String?) -> EmailTransport {
            EmailTransport(smtpURL: "\(scheme)://127.0.0.1:\(peer.port)", from: "hyponatrack@hospital.example",
                           to: ["ward7@hospital.example", "oncall@hospital.example"], username: username, password: password,
                           caFile: peer.caFile, rules: { Fixture.rules })
        }

        /// The receiver's summary of message `seq` (`<seq>.json`, written after the `.eml`).
        func message(_ seq: Int) throws -> JSONObject {
            let path = peer.directory.path("spool/\(seq).json")
            guard try Fixture.eventually(timeout: .seconds(5), { FileManager.default.fileExists(atPath: path) }) else {
                throw TestFailure("no message \(seq) in the spool")
            }
            guard case .object(let o) = try JSONParser.parse(try String(contentsOfFile: path, encoding: .utf8)) else {
                throw TestFailure("spool summary is not an object")
            }
            return o
        }

        func messageCount() throws -> Int {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: peer.directory.path("spool"))) ?? []
            return files.filter { $0.hasSuffix(".eml") }.count
        }
    }

    /// A minimal HTTP/1.1 client over a loopback TCP socket, for the receivers' control side
    /// (the test target does not link the HTTP client).
    enum LoopbackHTTP {
        static func post(port: Int, path: String, body: String) throws -> (status: Int, body: String) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw TestFailure("socket: \(errno)") }
            defer { close(fd) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw TestFailure("connect to 127.0.0.1:\(port): \(errno)") }
            let payload = Array(body.utf8)
            let request = Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(payload.count)\r\n\r\n".utf8) + payload
            var sent = 0
            while sent < request.count {
                let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, 0) }
                guard n > 0 else { throw TestFailure("send: \(errno)") }
                sent += n
            }
            var response: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                response += buffer[0..<n]
            }
            let text = String(decoding: response, as: UTF8.self)
            let parts = text.components(separatedBy: "\r\n\r\n")
            let status = parts.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return (status, parts.dropFirst().joined(separator: "\r\n\r\n"))
        }
    }
}
