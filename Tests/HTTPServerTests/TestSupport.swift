import Dispatch
import HTTPServer
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Server settings for tests: loopback, ephemeral port, a small pool (the machine is shared).
func testConfiguration(_ adjust: (inout HTTPServerConfiguration) -> Void = { _ in }) -> HTTPServerConfiguration {
    var configuration = HTTPServerConfiguration()
    configuration.handlerThreads = 4
    configuration.connectionTimeoutSeconds = 10
    adjust(&configuration)
    return configuration
}

/// Records what the handler saw, safely across MHD threads.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
    var count: Int { values.withLock { $0.count } }
    var last: Value? { values.withLock { $0.last } }
}


/// A one-shot latch the test opens to let a blocked handler continue.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func open() { semaphore.signal() }
    /// Waits up to `seconds`; true if opened.
    func wait(seconds: Double = 10) -> Bool {
        semaphore.wait(timeout: .now() + .milliseconds(Int(seconds * 1000))) == .success
    }
}

/// A deterministic, non-repeating-looking body so a reordered or dropped chunk is caught.
func patternBody(count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ ($0 >> 8)) }
}
