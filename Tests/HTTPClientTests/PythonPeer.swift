import Foundation

/// A Python 3 `http.server` on an ephemeral loopback port, plain or TLS: the peer for what
/// libmicrohttpd cannot play (TLS; a body without Content-Length).
///
/// Routes: `/unsized?bytes=N` answers N bytes close-delimited (no Content-Length); anything
/// else answers 200 "hello from the test peer". The script exits when its stdin closes, so a
/// crashed test run leaves no server behind.
final class PythonPeer {
    let port: UInt16
    private let process: Process
    private let stdin: Pipe

    /// Starts the server; with `certificate` and `key` (PEM paths) it speaks TLS only.
    init(directory: URL, certificate: URL? = nil, key: URL? = nil) throws {
        let script = directory.appendingPathComponent("peer.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + [certificate, key].compactMap { $0?.path }
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        self.stdin = stdin
        // The script prints its port once it listens; EOF instead means it failed to start.
        var line: [UInt8] = []
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let text = String(bytes: line, encoding: .utf8),
              let port = UInt16(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw PeerFailure(description: "the Python test peer did not start")
        }
        self.port = port
    }

    deinit { stop() }

    /// Stops the server (it is this test's own child process).
    func stop() {
        guard process.isRunning else { return }
        try? stdin.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    private static let script = #"""
    import http.server, os, ssl, sys, threading

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path.startswith("/unsized?bytes="):
                remaining = int(self.path.split("=", 1)[1])
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                chunk = b"x" * 65536
                try:
                    while remaining > 0:
                        part = chunk[:min(len(chunk), remaining)]
                        self.wfile.write(part)
                        remaining -= len(part)
                except OSError:
                    pass
                return
            body = b"hello from the test peer"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if len(sys.argv) == 3:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        server.socket = context.wrap_socket(server.socket, server_side=True)

    def exit_when_parent_goes():
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=exit_when_parent_goes, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#
}

struct PeerFailure: Error, CustomStringConvertible {
    let description: String
}

/// A fresh directory under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("HTTPClientTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
