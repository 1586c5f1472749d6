import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where the `Logger` writes: stderr, without letting a reader that stopped reading stop the
/// daemon. Every thread logs (the HTTP polling threads, the writer, the sync), so a blocking
/// write on a full pipe or journal stream would block them all (`scripts/log-stall`). Lines
/// gather in `pending` until the Logger flushes them (see `Logger`); before each write it
/// waits at most `patienceMilliseconds` for stderr to take it (not when stderr is a regular
/// file, which always does); lines it would not take are dropped and counted, later ones are
/// dropped at once until stderr takes a write again, and the first write that goes through is
/// preceded by a warning saying how many were lost. Used under the Logger's lock.
struct StandardErrorSink {
    /// How long one write may wait for stderr before lines start being dropped.
    var patienceMilliseconds: Int32 = 100
    private(set) var dropped = 0
    private var pending: [UInt8] = []
    private var pendingLines = 0
    /// A regular file (stderr redirected to a log file) always takes a write: no poll first.
    private let isRegularFile: Bool = {
        var status = stat()
        return fstat(STDERR_FILENO, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }()

    var bufferedBytes: Int { pending.count }

    /// Adds one line (with its newline) to what the next `flush` writes; true if it is the first.
    mutating func buffer(_ line: [UInt8]) -> Bool {
        let first = pending.isEmpty
        if first { pending.reserveCapacity(4096) }
        pending.append(contentsOf: line)
        pendingLines += 1
        return first
    }

    /// Writes the buffered lines; `dropNotice` words the warning for `n` lost lines.
    mutating func flush(dropNotice: (Int) -> [UInt8]) {
        guard !pending.isEmpty else { return }
        defer {
            pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
            pendingLines = 0
        }
        if !isRegularFile {
            let waitMs = dropped > 0 ? 0 : patienceMilliseconds
            var entry = pollfd(fd: STDERR_FILENO, events: Int16(POLLOUT), revents: 0)
            var ready: Int32
            repeat { ready = poll(&entry, 1, waitMs) } while ready < 0 && errno == EINTR
            // Not writable in time (a full pipe nobody reads): drop rather than block every thread.
            // An error or hang-up is left to the write, as before.
            guard ready != 0 else { dropped += pendingLines; return }
        }
        if dropped > 0 {
            Self.writeAll(dropNotice(dropped))
            dropped = 0
        }
        Self.writeAll(pending)
    }

    /// All the bytes, across short writes; an error (stderr closed) drops the rest.
    private static func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { bytes in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(STDERR_FILENO, bytes.baseAddress! + done, bytes.count - done)
                if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}
