import Foundation

/// A key kept as hexadecimal text in an owner-only file outside the data directory: the audit
/// key and the second-factor key.
protocol HexKeyFileKey: Sendable {
    init(hexText: String, source: String) throws
    static func generate(source: String) throws -> Self
    var hexText: String { get }
    var fingerprint: String { get }
}

/// Finds such a key, the first of:
///
/// 1. the configured file (`configKey`): it must exist, be owner-only (0600 or 0400) and lie
///    outside the data directory — a key stored with the database it protects protects nothing.
///    Any of these wrong is a start-up error naming the file;
/// 2. `$CREDENTIALS_DIRECTORY/<credentialName>` (systemd `LoadCredential=`), taken as systemd
///    provides it (its directory and modes are systemd's, as for the REDCap token);
/// 3. `DATA_DIR/../<credentialName>`, beside the data directory: read if it exists, otherwise
///    created (0600, 32 bytes from the CSPRNG as 64 hex digits). Either way a warning says it
///    should move: a copy of the parent directory carries the key and the database together.
struct KeyFileSource<Key: HexKeyFileKey> {
    /// "audit key", "second-factor key".
    let what: String
    /// The configuration key naming the file, e.g. "audit.keyFile".
    let configKey: String
    let configuredFile: String?
    /// The systemd credential's name, also the file's name beside the data directory.
    let credentialName: String
    /// Where an operator reads more, e.g. " (docs/operations.md §4.2)".
    let reference: String

    func load(dataDirectory: URL, environment: [String: String], logger: Logger) throws -> Key {
        if let file = configuredFile {
            return try read(file, source: "\(configKey) \(file)", dataDirectory: dataDirectory)
        }
        if let directory = environment["CREDENTIALS_DIRECTORY"] {
            let file = (directory as NSString).appendingPathComponent(credentialName)
            if FileManager.default.fileExists(atPath: file) {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw DaemonError("$CREDENTIALS_DIRECTORY/\(credentialName) cannot be read")
                }
                return try Key(hexText: text, source: "$CREDENTIALS_DIRECTORY/\(credentialName)")
            }
        }
        let file = besideDataDirectory(dataDirectory)
        let created = try createIfMissing(file)
        let key = try read(file, source: file, dataDirectory: dataDirectory)
        let move = "move it where the data directory's copies and backups do not go, set \(configKey) or the systemd credential \(credentialName)"
        logger.warning(created ? "created a new \(what) beside the data directory; \(move), and back it up separately\(reference)"
                               : "the \(what) is read from beside the data directory; \(move)\(reference)",
                       ["path": file, "key_fingerprint": key.fingerprint])
        return key
    }

    /// `DATA_DIR/../<credentialName>`.
    func besideDataDirectory(_ dataDirectory: URL) -> String {
        dataDirectory.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(credentialName).path
    }

    /// An operator's key file, checked as described on the type.
    func read(_ file: String, source: String, dataDirectory: URL) throws -> Key {
        if Self.isInside(file, dataDirectory) {
            throw DaemonError("\(source): the \(what) must not be inside the data directory \(dataDirectory.path) (whoever copies the database would have the key too); keep it elsewhere, e.g. /etc/hyponatrack/\(credentialName)")
        }
        return try Key(hexText: try OwnerOnlyFile.read(file, what: source), source: source)
    }

    /// Whether `file` (symbolic links resolved) lies under `directory`.
    static func isInside(_ file: String, _ directory: URL) -> Bool {
        let path = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        let base = directory.resolvingSymlinksInPath().path
        return path.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }

    /// Creates a new key file at `file` unless one exists; true if it did.
    private func createIfMissing(_ file: String) throws -> Bool {
        if FileManager.default.fileExists(atPath: file) { return false }
        let key = try Key.generate(source: file)
        do {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return try OwnerOnlyFile.create(key.hexText + "\n", at: file)
        } catch {
            throw DaemonError("cannot create the \(what) beside the data directory (\(error)); set \(configKey) to an owner-only key file outside the data directory, or hand one over as the systemd credential \(credentialName)\(reference)")
        }
    }
}
