import Foundation

/// Secret files (REDCap token, webhook secrets, SMTP credentials) must be readable by their owner
/// only: no group or other permission bits (0600 or 0400, so systemd `LoadCredential=` files
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
}
