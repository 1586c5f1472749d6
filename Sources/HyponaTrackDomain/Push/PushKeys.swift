import Crypto
import Foundation

/// The push services' keys, read and checked at start (docs/product.md, W, "Configuration"):
/// each configured platform's key file must be owner-only (0600 or 0400), or come from systemd's
/// `$CREDENTIALS_DIRECTORY` (`apns-key`, `fcm-service-account`, `vapid-key`) when the configured
/// file does not exist, as the REDCap token does. A key that cannot be used stops the start with
/// a message naming the configuration key and file (`hyponatrackd` exits 78, as for any invalid
/// configuration). Key material never reaches a log or an error message.
public struct PushKeys: Sendable {
    public var apns: P256PrivateKey?
    public var fcm: FCMServiceAccount?
    public var vapid: VAPID?

    public init(apns: P256PrivateKey? = nil, fcm: FCMServiceAccount? = nil, vapid: VAPID? = nil) {
        self.apns = apns
        self.fcm = fcm
        self.vapid = vapid
    }

    public static func load(_ push: ServerConfiguration.Push,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PushKeys {
        var keys = PushKeys()
        if let apns = push.apns {
            let (file, source) = try locate(apns.keyFile, credential: "apns-key", key: "push.apns.keyFile", environment)
            keys.apns = try pem(source) { () throws(KeyError) in try P256PrivateKey(pemFile: file, source: source) }
        }
        if let webPush = push.webPush {
            let (file, source) = try locate(webPush.vapidKeyFile, credential: "vapid-key", key: "push.webPush.vapidKeyFile", environment)
            let key = try pem(source) { () throws(KeyError) in try P256PrivateKey(pemFile: file, source: source) }
            do { keys.vapid = try VAPID(key: key, subject: webPush.subject) } catch {
                throw DaemonError("push.webPush.subject: \(error)")
            }
        }
        if let fcm = push.fcm {
            let (file, source) = try locate(fcm.serviceAccountFile, credential: "fcm-service-account",
                                            key: "push.fcm.serviceAccountFile", environment)
            keys.fcm = try FCMServiceAccount(file: file, source: source)
        }
        return keys
    }

    /// The configured file when it exists (then owner-only), else the systemd credential.
    static func locate(_ file: String, credential: String, key: String, _ environment: [String: String]) throws -> (String, String) {
        if FileManager.default.fileExists(atPath: file) {
            try OwnerOnlyFile.checkMode(file, what: key)
            return (file, "\(key) \(file)")
        }
        if let directory = environment["CREDENTIALS_DIRECTORY"] {
            let path = (directory as NSString).appendingPathComponent(credential)
            // systemd owns this directory and its modes, as for the REDCap token.
            if FileManager.default.fileExists(atPath: path) { return (path, "$CREDENTIALS_DIRECTORY/\(credential)") }
        }
        throw DaemonError("\(key) \(file) does not exist (nor $CREDENTIALS_DIRECTORY/\(credential))")
    }

    private static func pem<K>(_ source: String, _ load: () throws(KeyError) -> K) throws -> K {
        do { return try load() } catch { throw DaemonError("\(error)") }
    }
}

/// The parts of an FCM service account's JSON key file the daemon uses (Google's format:
/// `type` "service_account", `project_id`, `private_key` PEM, `client_email`, `token_uri`).
public struct FCMServiceAccount: Sendable {
    public let projectId: String
    public let clientEmail: String
    public let tokenURI: String
    public let key: RSAPrivateKey

    private struct File: Decodable {
        let type: String?
        let project_id: String
        let private_key: String
        let client_email: String
        let token_uri: String
    }

    init(file path: String, source: String) throws {
        guard var data = FileManager.default.contents(atPath: path) else { throw DaemonError("\(source) cannot be read") }
        defer { data.resetBytes(in: 0..<data.count) }
        let parsed: File
        do { parsed = try JSONDecoder().decode(File.self, from: data) } catch {
            // The decoder's message may quote the file: only the missing member is named.
            if case DecodingError.keyNotFound(let key, _) = error {
                throw DaemonError("\(source): a service account key file needs \(key.stringValue)")
            }
            throw DaemonError("\(source) is not a service account's JSON key file")
        }
        guard parsed.type == nil || parsed.type == "service_account" else {
            throw DaemonError("\(source) is not a service account's key file (type \(parsed.type!.prefix(40)))")
        }
        guard parsed.token_uri.lowercased().hasPrefix("https://") else {
            throw DaemonError("\(source): token_uri must be an https:// URL")
        }
        guard !parsed.project_id.isEmpty, parsed.project_id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x2F }) else {
            throw DaemonError("\(source): project_id is not a project ID")
        }
        var pem = Array(parsed.private_key.utf8)
        defer { Crypto.wipe(&pem) }
        do { key = try RSAPrivateKey(pem: pem, source: "\(source) private_key") } catch { throw DaemonError("\(error)") }
        projectId = parsed.project_id
        clientEmail = parsed.client_email
        tokenURI = parsed.token_uri
    }
}
