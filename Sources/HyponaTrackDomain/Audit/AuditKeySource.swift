import Foundation

/// Finds the audit key (docs/operations.md §4.2), the first of:
///
/// 1. `audit.keyFile`: it must exist, be owner-only (no group or other bits: 0600 or 0400) and
///    lie outside the data directory — a key stored with the database it protects protects
///    nothing. Any of these wrong is a start-up error naming the file;
/// 2. `$CREDENTIALS_DIRECTORY/audit-key` (systemd `LoadCredential=`), taken as systemd provides
///    it (its directory and modes are systemd's, as for the REDCap token);
/// 3. `DATA_DIR/../audit-key`, beside the data directory: read if it exists, otherwise created
///    (0600, 64 hex characters = 32 bytes from the CSPRNG). Either way a warning says it should
///    move: a copy of the parent directory carries the key and the database together.
///
/// The file holds the key as hexadecimal text (at least 64 digits), e.g. `openssl rand -hex 32`.
enum AuditKeySource {
    static let credentialName = "audit-key"
    static let besideDataDirectoryName = "audit-key"

    static func load(configuration: ServerConfiguration,
                     environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger) throws -> AuditKey {
        let dataDirectory = configuration.dataDirectory
        if let file = configuration.audit.keyFile {
            return try read(file, source: "audit.keyFile \(file)", dataDirectory: dataDirectory)
        }
        if let directory = environment["CREDENTIALS_DIRECTORY"] {
            let file = (directory as NSString).appendingPathComponent(credentialName)
            if FileManager.default.fileExists(atPath: file) {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw DaemonError("$CREDENTIALS_DIRECTORY/\(credentialName) cannot be read")
                }
                return try AuditKey(hexText: text, source: "$CREDENTIALS_DIRECTORY/\(credentialName)")
            }
        }
        let file = besideDataDirectory(dataDirectory)
        let created = try createIfMissing(file)
        let key = try read(file, source: file, dataDirectory: dataDirectory)
        logger.warning(created ? "created a new audit key beside the data directory; move it where the data directory's copies and backups do not go, set audit.keyFile or a systemd credential, and back it up separately (docs/operations.md §4.2)"
                               : "the audit key is read from beside the data directory; move it where the data directory's copies and backups do not go, set audit.keyFile or a systemd credential (docs/operations.md §4.2)",
                       ["path": file, "key_fingerprint": key.fingerprint])
        return key
    }

    /// `DATA_DIR/../audit-key`.
    static func besideDataDirectory(_ dataDirectory: URL) -> String {
        dataDirectory.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(besideDataDirectoryName).path
    }

    /// An operator's key file, checked as described on the type.
    static func read(_ file: String, source: String, dataDirectory: URL) throws -> AuditKey {
        if isInside(file, dataDirectory) {
            throw DaemonError("\(source): the audit key must not be inside the data directory \(dataDirectory.path) (whoever copies the database would have the key too); keep it elsewhere, e.g. /etc/hyponatrack/audit-key")
        }
        return try AuditKey(hexText: try OwnerOnlyFile.read(file, what: source), source: source)
    }

    /// Whether `file` (symbolic links resolved) lies under `directory`.
    static func isInside(_ file: String, _ directory: URL) -> Bool {
        let path = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        let base = directory.resolvingSymlinksInPath().path
        return path.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }

    /// Creates a new key file at `file` unless one exists; true if it did.
    private static func createIfMissing(_ file: String) throws -> Bool {
        if FileManager.default.fileExists(atPath: file) { return false }
        let key = try AuditKey.generate(source: file)
        do {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return try OwnerOnlyFile.create(key.hexText + "\n", at: file)
        } catch {
            throw DaemonError("cannot create the audit key beside the data directory (\(error)); set audit.keyFile to an owner-only key file outside the data directory, or hand one over as the systemd credential audit-key (docs/operations.md §4.2)")
        }
    }
}
