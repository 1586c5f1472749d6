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
    /// Standard error, or a pipe in a test.
    let fd: Int32
    /// A regular file (stderr redirected to a log file) always takes a write: no poll first.
    private let isRegularFile: Bool

    init(fd: Int32 = STDERR_FILENO) {
        self.fd = fd
        var status = stat()
        isRegularFile = fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The most one write puts in a pipe or socket: poll's "writable" promises room for one
    /// page, no more, and a larger write to a pipe nobody reads would block (it did, under
    /// load, when 20 ms of lines went out in one write: scripts/log-stall stalled once in a run).
    static let chunkBytes = Int(PIPE_BUF)

    var bufferedBytes: Int { pending.count }

    /// Adds one line (with its newline) to what the next `flush` writes; true if it is the first.
    mutating func buffer(_ line: [UInt8]) -> Bool {
        let first = pending.isEmpty
        if first { pending.reserveCapacity(4096) }
        pending.append(contentsOf: line)
        pendingLines += 1
        return first
    }

    /// Writes the buffered lines, a page at a time (whole lines where they fit); `dropNotice`
    /// words the warning for `n` lost lines.
    mutating func flush(dropNotice: (Int) -> [UInt8]) {
        guard !pending.isEmpty else { return }
        defer {
            pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
            pendingLines = 0
        }
        var start = 0
        var waitMs = dropped > 0 ? 0 : patienceMilliseconds
        while start < pending.count {
            // Not writable in time (a full pipe nobody reads): drop the rest rather than block
            // every thread. An error or hang-up is left to the write, as before.
            guard isRegularFile || writable(waitMs) else {
                dropped += pending[start...].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                return
            }
            waitMs = patienceMilliseconds
            if dropped > 0 {
                writeAll(dropNotice(dropped)[...])
                dropped = 0
                continue            // the notice took room: poll again before the lines
            }
            let end = isRegularFile ? pending.count : chunkEnd(from: start)
            writeAll(pending[start..<end])
            start = end
        }
    }

    /// Where the write from `start` ends: after the last newline within a page, else a page on.
    private func chunkEnd(from start: Int) -> Int {
        let limit = min(pending.count, start + Self.chunkBytes)
        guard limit < pending.count else { return limit }
        if let newline = pending[start..<limit].lastIndex(of: UInt8(ascii: "\n")) { return newline + 1 }
        return limit
    }

    private func writable(_ waitMs: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        var ready: Int32
        repeat { ready = poll(&entry, 1, waitMs) } while ready < 0 && errno == EINTR
        return ready != 0
    }

    /// All the bytes, across short writes; an error (stderr closed) drops the rest.
    private func writeAll(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { bytes in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}
