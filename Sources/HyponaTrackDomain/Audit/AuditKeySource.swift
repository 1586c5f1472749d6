import Foundation

/// Finds the audit key (docs/operations.md §4.2) as `KeyFileSource` describes: `audit.keyFile`,
/// else `$CREDENTIALS_DIRECTORY/audit-key`, else `DATA_DIR/../audit-key` (created when missing).
/// The file holds the key as hexadecimal text (at least 64 digits), e.g. `openssl rand -hex 32`.
enum AuditKeySource {
    static func source(file: String?) -> KeyFileSource<AuditKey> {
        KeyFileSource(what: "audit key", configKey: "audit.keyFile", configuredFile: file, credentialName: "audit-key",
                      reference: " (docs/operations.md §4.2)")
    }

    static func load(configuration: ServerConfiguration,
                     environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger) throws -> AuditKey {
        try source(file: configuration.audit.keyFile).load(dataDirectory: configuration.dataDirectory, environment: environment, logger: logger)
    }

    /// `DATA_DIR/../audit-key`.
    static func besideDataDirectory(_ dataDirectory: URL) -> String { source(file: nil).besideDataDirectory(dataDirectory) }

    /// An operator's key file, checked as `KeyFileSource` describes.
    static func read(_ file: String, source label: String, dataDirectory: URL) throws -> AuditKey {
        try source(file: file).read(file, source: label, dataDirectory: dataDirectory)
    }

    /// Whether `file` (symbolic links resolved) lies under `directory`.
    static func isInside(_ file: String, _ directory: URL) -> Bool { KeyFileSource<AuditKey>.isInside(file, directory) }
}
