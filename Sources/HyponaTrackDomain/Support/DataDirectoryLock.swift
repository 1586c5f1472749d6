import Foundation

/// An exclusive `flock(2)` on the data directory, held for the life of the process that owns the
/// database: the daemon, or the offline admin recovery. A second holder is refused at once, so
/// two daemons never write one database and `--new-admin-token` never runs beside a daemon.
/// The lock goes with the process (also on `kill -9`); the descriptor is close-on-exec, so a
/// command hook the daemon runs does not inherit it.
public final class DataDirectoryLock: Sendable {
    private let descriptor: Int32
    public let path: String

    /// Why the lock cannot be taken.
    public enum Failure: Error, CustomStringConvertible {
        /// Another process holds it (a daemon runs on the directory).
        case held(String)
        case cannotOpen(String, String)

        public var description: String {
            switch self {
            case .held(let path): return "another hyponatrackd holds the data directory \(path) (flock); stop it first"
            case .cannotOpen(let path, let reason): return "cannot open the data directory \(path) to lock it: \(reason)"
            }
        }
    }

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Creates the directory (0700) when missing, then locks it without waiting.
    public static func acquire(_ directory: URL) throws(Failure) -> DataDirectoryLock {
        let path = directory.path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotOpen(path, "\(error.localizedDescription)")
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path, String(cString: strerror(errno))) }
        var result: Int32
        repeat { result = flock(fd, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let reason = errno
            close(fd)
            if reason == EWOULDBLOCK { throw .held(path) }
            throw .cannotOpen(path, String(cString: strerror(reason)))
        }
        return DataDirectoryLock(descriptor: fd, path: path)
    }

    deinit { close(descriptor) }
}
