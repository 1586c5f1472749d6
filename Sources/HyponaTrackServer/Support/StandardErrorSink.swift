import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where the `Logger` writes: stderr, without letting a reader that stopped reading stop the
/// daemon. Every thread logs (the HTTP polling threads, the writer, the sync), so a blocking
/// write on a full pipe or journal stream would block them all (`scripts/log-stall`). Before each
/// line it waits at most `patienceMilliseconds` for stderr to take it; a line it would not take is dropped
/// and counted, later lines are dropped at once until stderr takes one again, and the first line
/// that goes through is preceded by a warning saying how many were lost. Lines are written
/// synchronously otherwise, so nothing logged before an exit is lost. Used under the Logger's lock.
struct StandardErrorSink {
    /// How long one line may wait for stderr before lines start being dropped.
    var patienceMilliseconds: Int32 = 100
    private(set) var dropped = 0
    private let handle = FileHandle.standardError

    /// Writes `line` (with its newline); `dropNotice` words the warning for `n` lost lines.
    mutating func write(_ line: String, dropNotice: (Int) -> String) {
        let waitMs = dropped > 0 ? 0 : patienceMilliseconds
        var entry = pollfd(fd: STDERR_FILENO, events: Int16(POLLOUT), revents: 0)
        var ready: Int32
        repeat { ready = poll(&entry, 1, waitMs) } while ready < 0 && errno == EINTR
        // Not writable in time (a full pipe nobody reads): drop rather than block every thread.
        // An error or hang-up is left to the write, as before.
        guard ready != 0 else { dropped += 1; return }
        if dropped > 0 {
            handle.write(Data(dropNotice(dropped).utf8))
            dropped = 0
        }
        handle.write(Data(line.utf8))
    }
}
