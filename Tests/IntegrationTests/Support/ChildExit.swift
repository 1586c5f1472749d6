import Foundation
import Synchronization

/// Waiting for a child process without `Process.waitUntilExit()`. On Linux, Foundation can miss
/// a child's exit when several children end at about the same time (seen here: two defunct
/// children, both `waitUntilExit()` calls blocked for good, the test run hung). So: ask
/// Foundation first, and if it still thinks the child runs, reap it ourselves with
/// `waitpid(WNOHANG)` and remember its status. Every wait on a child goes through here.
enum ChildExit {
    private static let reaped = Mutex<[Int32: Int32]>([:])

    /// The exit status (128 + signal when killed by one), or nil while the child runs.
    static func status(of process: Process) -> Int32? {
        let pid = process.processIdentifier
        if let known = reaped.withLock({ $0[pid] }) { return known }
        if !process.isRunning { return process.terminationStatus }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
        let status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        reaped.withLock { $0[pid] = status }
        return status
    }

    static func hasExited(_ process: Process) -> Bool { status(of: process) != nil }

    /// Blocks until the child has ended; its status.
    @discardableResult
    static func wait(_ process: Process) -> Int32 {
        while true {
            if let s = status(of: process) { return s }
            usleep(5_000)
        }
    }
}
