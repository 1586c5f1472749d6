import Dispatch
import Foundation
import SQLite

/// A fresh directory under the system temp dir, removed after `body`.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// Async variant of `withTemporaryDirectory`.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

private func makeTemporaryDirectory() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/sqlite-tests-XXXXXX").utf8CString)
    guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw CocoaError(.fileWriteUnknown)
    }
    return String(cString: result)
}

/// Runs `body(index)` on `count` real threads at once (not a width-limited pool) and waits
/// for all of them.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

/// Starts `body` on a new thread; the returned group is left when it finishes.
func startThread(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    group.enter()
    Thread {
        body()
        group.leave()
    }.start()
    return group
}

/// Waits (yielding the CPU, no fixed sleep) until `condition` holds; false after 30 s.
func waitUntil(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(30)
    while !condition() {
        if Date() > deadline { return false }
        sched_yield()
    }
    return true
}

/// A lock-protected value for collecting results from several threads in a test.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}

struct TestFailure: Error, Equatable {
    let tag: Int
}

/// Opens a writable connection on `directory/name` with a small `entries` table.
func openWithEntries(_ directory: String, name: String = "test.sqlite") throws -> Connection {
    let db = try Connection(path: directory + "/" + name)
    try db.execute("""
        CREATE TABLE IF NOT EXISTS entries(
            id INTEGER PRIMARY KEY,
            tag TEXT NOT NULL UNIQUE,
            value INTEGER);
        """)
    return db
}
