#if canImport(Glibc)
import Glibc
#endif

/// Uploads larger than ``HTTPServerConfiguration/maxBodyBytes`` that some routes accept: the
/// body is written to a file in `directory` as its chunks arrive (libmicrohttpd hands each
/// chunk only for the duration of the callback), the handler gets its path in
/// ``HTTPRequest/bodyFile``, and the file is removed once the response is sent. Every other
/// request keeps the in-memory cap.
public struct UploadSpool: Sendable {
    /// What to do with a request whose headers are complete.
    public enum Decision: Sendable {
        /// The usual in-memory body under `maxBodyBytes`.
        case buffer
        /// An in-memory body up to this many bytes instead of `maxBodyBytes` (a route whose JSON
        /// body may be larger than the rest's); above it, 413 as for any body.
        case bufferUpTo(Int)
        /// Spool the body to a file, up to `maxBytes`.
        case spool
        /// Answer at once without reading the body (e.g. 401 before a large upload).
        case refuse(HTTPResponse)
    }

    public var directory: String
    public var maxBytes: Int
    /// Seconds within which a spooled body must be complete after its headers.
    public var bodyTimeoutSeconds: Double
    /// Called on an MHD polling thread when the headers are complete: keep it quick.
    public var decide: @Sendable (_ method: HTTPMethod, _ path: String, _ headers: HTTPHeaders) -> Decision

    public init(directory: String, maxBytes: Int, bodyTimeoutSeconds: Double = 900,
                decide: @escaping @Sendable (_ method: HTTPMethod, _ path: String, _ headers: HTTPHeaders) -> Decision) {
        self.directory = directory
        self.maxBytes = maxBytes
        self.bodyTimeoutSeconds = bodyTimeoutSeconds
        self.decide = decide
    }
}

/// One spooled body: an owner-only file created with `mkstemp`, written chunk by chunk.
final class SpoolFile {
    let path: String
    private var fd: Int32
    private(set) var written = 0
    private(set) var failed = false

    init?(directory: String) {
        _ = mkdir(directory, 0o700)
        var template = Array((directory + "/upload-XXXXXX").utf8CString)
        fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        path = String(cString: template)
    }

    /// Writes the whole chunk (retrying short writes and EINTR); a failure (disk full) is kept.
    func write(_ data: UnsafeRawPointer, count: Int) {
        guard !failed, fd >= 0 else { return }
        var done = 0
        while done < count {
            let n = Glibc.write(fd, data + done, count - done)
            if n < 0 {
                if errno == EINTR { continue }
                failed = true
                return
            }
            done += n
        }
        written += count
    }

    /// The body is complete: the file stays for the handler.
    func finish() {
        if fd >= 0 { close(fd); fd = -1 }
    }

    /// Closes and deletes the file (after the response, or when the body was refused).
    func remove() {
        finish()
        unlink(path)
    }
}
