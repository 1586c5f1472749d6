/// Why the server could not start (or a socket operation failed): what went wrong, in words
/// an operator can act on, with the `errno` when the kernel gave one.
public struct HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// Machine-readable category.
    public enum Code: String, Sendable {
        /// A configuration value is out of range or unparsable.
        case invalidConfiguration = "invalid_configuration"
        /// libmicrohttpd refused to start (port in use, bad socket, …).
        case startFailed = "start_failed"
        /// A system call failed.
        case systemCall = "system_call"
    }

    /// The category.
    public let code: Code
    /// A sentence for the operator.
    public let message: String
    /// `errno` at the time of failure, when relevant.
    public let errno: Int32?

    /// Builds an error.
    public init(_ code: Code, _ message: String, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    /// `code: message (errno N)`, for logs.
    public var description: String {
        errno.map { "\(code.rawValue): \(message) (errno \($0))" } ?? "\(code.rawValue): \(message)"
    }
}
