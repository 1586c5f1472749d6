import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The log sink with a pipe nobody reads in place of stderr (scripts/log-stall does the same
/// with the real daemon): a flush writes what fits and drops the rest, never blocking.
@Suite struct StandardErrorSinkTests {
    final class Pipe {
        let read: Int32, write: Int32
        init() throws {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
            (read, write) = (fds[0], fds[1])
        }
        /// Everything in the pipe now (the read end made non-blocking).
        func drain() -> [UInt8] {
            _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL) | O_NONBLOCK)
            var out: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = Glibc.read(read, &chunk, chunk.count)
                if n <= 0 { return out }
                out += chunk[..<n]
            }
        }
        deinit { close(read); close(write) }
    }

    static func line(_ n: Int) -> [UInt8] { Array("line \(n) \(String(repeating: "x", count: 90))\n".utf8) }

    /// 100 KiB of lines against a 64 KiB pipe in one flush: the lines that fit arrive whole, the
    /// others are counted as dropped, and the flush returns (one write of the whole batch
    /// blocked until someone read the pipe).
    @Test func aFlushLargerThanThePipeHasRoomForWritesWholeLinesAndDropsTheRest() throws {
        let pipe = try Pipe()
        nonisolated(unsafe) var sink = StandardErrorSink(fd: pipe.write)
        let lines = 1000
        for n in 0..<lines { _ = sink.buffer(Self.line(n)) }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            sink.flush { n in Array("dropped \(n)\n".utf8) }
            done.signal()
        }
        let returned = done.wait(timeout: .now() + 10) == .success
        var received = pipe.drain()
        if !returned {                                    // unblock the old behaviour's write
            while done.wait(timeout: .now() + 0.05) == .timedOut { received += pipe.drain() }
        }
        #expect(returned, "the flush blocked on a pipe nobody read")
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.hasSuffix("\n"), "a line was cut")
        let written = text.split(separator: "\n").count
        #expect(written > 0 && written < lines)
        #expect(written + sink.dropped == lines, "written \(written), dropped \(sink.dropped)")
        // Once the pipe has room again the next flush says how many were lost, then the line.
        _ = sink.buffer(Self.line(lines))
        sink.flush { n in Array("dropped \(n)\n".utf8) }
        #expect(String(decoding: pipe.drain(), as: UTF8.self) == "dropped \(lines - written)\n" + String(decoding: Self.line(lines), as: UTF8.self))
        #expect(sink.dropped == 0)
    }
}
