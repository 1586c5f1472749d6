#if canImport(Glibc)
import Glibc
#endif

/// Bytes read front to back in chunks: a file, or a zip entry being inflated. Readers that hold
/// only one chunk at a time keep their memory constant in the size of what they read.
public protocol ByteStream {
    /// Fills up to `buffer.count` bytes; 0 means the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int
}

/// A failure reading a file or an archive, said for the person who sent it.
public struct ZipError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A file read through its descriptor (closed on deinit).
public final class FileByteStream: ByteStream {
    let fd: Int32
    public let path: String

    public init(path: String) throws(ZipError) {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        self.path = path
        guard fd >= 0 else { throw ZipError("cannot open \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ZipError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Reads exactly `count` bytes at `offset` (fewer only at the end of the file).
    /// Offsets come from the file itself: one that `off_t` cannot hold is refused, not trapped on.
    func pread(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ZipError) -> Int {
        guard let start = off_t(exactly: offset), start <= off_t.max - off_t(buffer.count) else {
            throw ZipError("the zip archive is damaged: it points at byte \(offset), past the end of any file")
        }
        var done = 0
        while done < buffer.count {
            let n = Glibc.pread(fd, buffer.baseAddress! + done, buffer.count - done, start + off_t(done))
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw ZipError("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            done += n
        }
        return done
    }

    func size() throws(ZipError) -> UInt64 {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ZipError("cannot stat \(path): \(String(cString: strerror(errno)))") }
        return UInt64(st.st_size)
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    func bytes(_ count: Int, at offset: UInt64) throws(ZipError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 8)
        defer { buffer.deallocate() }
        let n = try pread(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: offset)
        return Array(buffer[0..<n])
    }

    /// The first bytes of the file (format detection), without moving the read position.
    public func peek(_ count: Int) throws(ZipError) -> [UInt8] { try bytes(count, at: 0) }
}
