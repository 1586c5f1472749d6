import Foundation

/// The OpenID client secret: `console.oidc.clientSecretFile` (owner-only, as every secret
/// file), else systemd's credential `oidc-client-secret` (`LoadCredential=`). Read at start and
/// by `--check-config`; a missing or unreadable one is a configuration error (exit 78) naming
/// the key. Its value never reaches a log.
enum ClientSecret {
    static let credentialName = "oidc-client-secret"

    static func load(_ sso: ServerConfiguration.SingleSignOn,
                     environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let key = "console.oidc.clientSecretFile"
        if let file = sso.clientSecretFile, FileManager.default.fileExists(atPath: file) {
            return try check(try OwnerOnlyFile.read(file, what: key), source: "\(key) \(file)")
        }
        if let dir = environment["CREDENTIALS_DIRECTORY"] {
            let file = (dir as NSString).appendingPathComponent(credentialName)
            if FileManager.default.fileExists(atPath: file) {
                // systemd owns this directory and its modes: its files are accepted as they are.
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw DaemonError("$CREDENTIALS_DIRECTORY/\(credentialName) cannot be read")
                }
                return try check(text.trimmingCharacters(in: .whitespacesAndNewlines), source: "$CREDENTIALS_DIRECTORY/\(credentialName)")
            }
        }
        if let file = sso.clientSecretFile {
            throw DaemonError("\(key): \(file) does not exist, and $CREDENTIALS_DIRECTORY/\(credentialName) is not there either")
        }
        throw DaemonError("\(key): no client secret: name an owner-only file, or provide $CREDENTIALS_DIRECTORY/\(credentialName)")
    }

    static func check(_ secret: String, source: String) throws -> String {
        guard !secret.isEmpty, secret.utf8.count <= 1024, !secret.contains("\n") else {
            throw DaemonError("\(source): a client secret is one line of 1–1024 bytes")
        }
        return secret
    }
}
