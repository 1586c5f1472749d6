#if canImport(Glibc)
import Glibc
#endif

/// A request body read from a file while libcurl sends it (``HTTPClientRequest/bodyFile``), so
/// a large upload costs one read buffer rather than the file's size in memory.
final class FileUpload {
    private let fd: Int32
    let size: Int64
    private(set) var failed = false

    /// nil when the file cannot be opened as a regular file.
    init?(path: String) {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return nil
        }
        size = Int64(st.st_size)
    }

    deinit { close(fd) }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        while true {
            let n = Glibc.read(fd, buffer, capacity)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            failed = true
            return Self.readAbort
        }
    }

    /// "Return CURL_READFUNC_ABORT to stop immediately" (0x10000000, curl.h; a macro Swift does not import).
    static let readAbort = 0x1000_0000

    /// CURLOPT_READFUNCTION: "Your function must then return the actual number of bytes that
    /// it stored in that memory area. Returning 0 will signal end-of-file to the library"
    /// (https://curl.se/libcurl/c/CURLOPT_READFUNCTION.html).
    static let read: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let upload = Unmanaged<FileUpload>.fromOpaque(context).takeUnretainedValue()
        return upload.read(into: UnsafeMutableRawPointer(buffer), capacity: size * count)
    }
}
