import Foundation

/// Secret files (REDCap token, webhook secrets, SMTP credentials, the bootstrap admin token) are
/// readable by their owner only: no group or other permission bits (0600 or 0400, so systemd `LoadCredential=` files
/// pass). Contents are trimmed of surrounding whitespace.
enum OwnerOnlyFile {
    static func read(_ path: String, what: String) throws -> String {
        try checkMode(path, what: what)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw DaemonError("\(what): cannot read \(path)") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Refuses a file that does not exist or that its group or others may read (key files
    /// read by other code, e.g. PEM keys through libcrypto's BIO).
    static func checkMode(_ path: String, what: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw DaemonError("\(what): \(path) does not exist or cannot be read") }
        guard info.st_mode & 0o077 == 0 else {
            throw DaemonError("\(what): \(path) must be readable by its owner only (chmod 600), it is \(String(info.st_mode & 0o777, radix: 8))")
        }
    }

    /// Writes `text` to `path` with mode 0600: a fresh temporary file, fsynced, then renamed
    /// over the target, so a crash leaves the old file or the new one, never half of either.
    static func write(_ text: String, to path: String) throws {
        let tmp = try temporaryCopy(of: text, beside: path, suffix: ".tmp")
        guard rename(tmp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(tmp)
            throw DaemonError("cannot write \(path): \(reason)")
        }
    }

    /// Creates `path` (mode 0600) holding `text` unless it exists; returns whether it did. The
    /// file appears complete or not at all (a fsynced temporary file, then `link(2)`, which
    /// fails with EEXIST rather than replace a file), so two processes starting at once end up
    /// with the same one, and the directory is fsynced so the new name survives a crash.
    static func create(_ text: String, at path: String) throws -> Bool {
        let tmp = try temporaryCopy(of: text, beside: path, suffix: ".tmp-\(getpid())")
        defer { unlink(tmp) }
        guard link(tmp, path) == 0 else {
            if errno == EEXIST { return false }
            throw DaemonError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 { _ = fsync(directory); close(directory) }
        return true
    }

    /// `text` in a new fsynced 0600 file `path + suffix`; returns its path.
    private static func temporaryCopy(of text: String, beside path: String, suffix: String) throws -> String {
        let tmp = path + suffix
        unlink(tmp)
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DaemonError("cannot create \(tmp): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == bytes.count, synced == 0 else {
            unlink(tmp)
            throw DaemonError("cannot write \(tmp): \(String(cString: strerror(errno)))")
        }
        return tmp
    }
}
