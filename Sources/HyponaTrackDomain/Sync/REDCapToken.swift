import Foundation

/// Finds the REDCap API token: `redcap.tokenFile`, then `$CREDENTIALS_DIRECTORY/redcap-token`
/// (systemd `LoadCredential=`), then `$HYPONATRACK_REDCAP_TOKEN` — the first found. Files must
/// be owner-only (no group or other bits: 0600 or 0400). Whitespace is trimmed (a trailing
/// newline makes REDCap answer 403) and the format is checked: 32 upper-case hex characters.
enum REDCapToken {
    static func load(tokenFile: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let tokenFile, FileManager.default.fileExists(atPath: tokenFile) {
            return try read(file: tokenFile, source: "redcap.tokenFile")
        }
        if let dir = environment["CREDENTIALS_DIRECTORY"] {
            let file = (dir as NSString).appendingPathComponent("redcap-token")
            if FileManager.default.fileExists(atPath: file) {
                // systemd owns this directory and its modes (newer versions grant the service a
                // read ACL, showing 0440): its files are accepted as they are.
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw DaemonError("$CREDENTIALS_DIRECTORY/redcap-token cannot be read")
                }
                return try check(text.trimmingCharacters(in: .whitespacesAndNewlines), source: "$CREDENTIALS_DIRECTORY/redcap-token")
            }
        }
        if let value = environment["HYPONATRACK_REDCAP_TOKEN"] {
            return try check(value.trimmingCharacters(in: .whitespacesAndNewlines), source: "HYPONATRACK_REDCAP_TOKEN")
        }
        if let tokenFile {
            throw DaemonError("no REDCap token: redcap.tokenFile \(tokenFile) does not exist, and neither $CREDENTIALS_DIRECTORY/redcap-token nor HYPONATRACK_REDCAP_TOKEN is set")
        }
        throw DaemonError("no REDCap token: set redcap.tokenFile, provide $CREDENTIALS_DIRECTORY/redcap-token, or HYPONATRACK_REDCAP_TOKEN")
    }

    static func read(file: String, source: String) throws -> String {
        try check(try OwnerOnlyFile.read(file, what: source), source: source)
    }

    static func check(_ token: String, source: String) throws -> String {
        guard token.utf8.count == 32, token.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 70) }) else {
            throw DaemonError("\(source): a REDCap API token is 32 upper-case hexadecimal characters")
        }
        return token
    }
}
