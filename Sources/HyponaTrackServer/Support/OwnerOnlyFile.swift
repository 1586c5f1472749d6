import Foundation

/// Secret files (REDCap token, webhook secrets, SMTP credentials, the bootstrap admin token) are
/// readable by their owner only: no group or other permission bits (0600 or 0400, so systemd `LoadCredential=` files
/// pass). Contents are trimmed of surrounding whitespace.
enum OwnerOnlyFile {
    static func read(_ path: String, what: String) throws -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { throw DaemonError("\(what): \(path) does not exist or cannot be read") }
        guard info.st_mode & 0o077 == 0 else {
            throw DaemonError("\(what): \(path) must be readable by its owner only (chmod 600), it is \(String(info.st_mode & 0o777, radix: 8))")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw DaemonError("\(what): cannot read \(path)") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes `text` to `path` with mode 0600: a fresh temporary file, fsynced, then renamed
    /// over the target, so a crash leaves the old file or the new one, never half of either.
    static func write(_ text: String, to path: String) throws {
        let tmp = path + ".tmp"
        unlink(tmp)
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DaemonError("cannot create \(tmp): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == bytes.count, synced == 0, rename(tmp, path) == 0 else {
            unlink(tmp)
            throw DaemonError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
