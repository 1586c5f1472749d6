import HTTPServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SystemdNotifierTests {
    /// An AF_UNIX datagram socket standing in for systemd's notification socket.
    private final class Listener {
        let fd: Int32
        let pathToRemove: String?

        init(name: String, abstract: Bool) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            try #require(fd >= 0)
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = (abstract ? [0] : []) + Array(name.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let length = 2 + bytes.count + (abstract ? 0 : 1)
            pathToRemove = abstract ? nil : name
            if let pathToRemove { unlink(pathToRemove) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
            }
            try #require(bound == 0)
        }

        deinit {
            close(fd)
            if let pathToRemove { unlink(pathToRemove) }
        }

        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
        }
    }

    @Test func readyDatagramArrivesOnAPathSocket() throws {
        let path = "/tmp/ht-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let listener = try Listener(name: path, abstract: false)

        #expect(try SystemdNotifier(socketPath: path).notify("READY=1"))
        #expect(listener.receive() == "READY=1")
        #expect(try SystemdNotifier(socketPath: path).notify("STOPPING=1\nSTATUS=Draining"))
        #expect(listener.receive() == "STOPPING=1\nSTATUS=Draining")
    }

    @Test func leadingAtMeansTheAbstractNamespace() throws {
        let name = "ht-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listener = try Listener(name: name, abstract: true)

        #expect(try SystemdNotifier(socketPath: "@" + name).notify("WATCHDOG=1"))
        #expect(listener.receive() == "WATCHDOG=1")
    }

    @Test func noSocketMeansNoOp() throws {
        #expect(try SystemdNotifier(socketPath: nil).notify("READY=1") == false)
        #expect(try SystemdNotifier(socketPath: "").notify("READY=1") == false)
    }

    @Test func missingSocketIsAnError() {
        #expect(throws: HTTPServerError.self) {
            try SystemdNotifier(socketPath: "/tmp/ht-no-such-socket-\(getpid())").notify("READY=1")
        }
    }
}
