import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where the `Logger` writes: stderr, without letting a reader that stopped reading stop the
/// daemon. Every thread logs (the HTTP polling threads, the writer, the sync), so a blocking
/// write on a full pipe or journal stream would block them all (`scripts/log-stall`). Before each
/// line it waits at most `patienceMilliseconds` for stderr to take it (not when stderr is a
/// regular file, which always does); a line it would not take is dropped
/// and counted, later lines are dropped at once until stderr takes one again, and the first line
/// that goes through is preceded by a warning saying how many were lost. Lines are written
/// synchronously otherwise, so nothing logged before an exit is lost. Used under the Logger's lock.
struct StandardErrorSink {
    /// How long one line may wait for stderr before lines start being dropped.
    var patienceMilliseconds: Int32 = 100
    private(set) var dropped = 0
    /// A regular file (stderr redirected to a log file) always takes a write: no poll first.
    private let isRegularFile: Bool = {
        var status = stat()
        return fstat(STDERR_FILENO, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }()

    /// Writes `line` (with its newline); `dropNotice` words the warning for `n` lost lines.
    mutating func write(_ line: String, dropNotice: (Int) -> String) {
        if !isRegularFile {
            let waitMs = dropped > 0 ? 0 : patienceMilliseconds
            var entry = pollfd(fd: STDERR_FILENO, events: Int16(POLLOUT), revents: 0)
            var ready: Int32
            repeat { ready = poll(&entry, 1, waitMs) } while ready < 0 && errno == EINTR
            // Not writable in time (a full pipe nobody reads): drop rather than block every thread.
            // An error or hang-up is left to the write, as before.
            guard ready != 0 else { dropped += 1; return }
        }
        if dropped > 0 {
            Self.writeAll(dropNotice(dropped))
            dropped = 0
        }
        Self.writeAll(line)
    }

    /// The whole text, across short writes; an error (stderr closed) drops the rest.
    private static func writeAll(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(STDERR_FILENO, bytes.baseAddress! + done, bytes.count - done)
                if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}
