#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPServer {
    /// Ignores `SIGPIPE` for the whole process; call once at startup.
    ///
    /// Writing to a socket the peer has closed raises `SIGPIPE`, whose default action kills
    /// the process. libmicrohttpd suppresses it on its own sends, but other code (an HTTP
    /// client, a log pipe) may not; a daemon must get `EPIPE` instead.
    public static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
