import Foundation
import HTTPClient

/// Builds each configured hook's transport at start-up, reading its secrets from owner-only
/// files. A hook that cannot be built stops the start with a message naming it. E-mails are
/// worded under the rules in force when they are written (`rules`).
enum HookTransports {
    static func make(_ hooks: [HookConfiguration], rules: ActiveRules) throws -> [String: any HookTransport] {
        var out: [String: any HookTransport] = [:]
        for hook in hooks {
            switch hook.kind {
            case .webhook(let url, let secretFile, let caFile):
                let text = try OwnerOnlyFile.read(secretFile, what: "hook \(hook.name) secretFile")
                guard let key = WebhookSignature.decodeSecret(text) else {
                    throw DaemonError("hook \(hook.name): \(secretFile) must hold a secret of the form whsec_<base64>")
                }
                out[hook.name] = WebhookTransport(url: url, secret: key, caFile: caFile)
            case .email(let smtpURL, let from, let to, let credentialsFile, let caFile):
                var username: String?, password: String?
                if let credentialsFile {
                    let text = try OwnerOnlyFile.read(credentialsFile, what: "hook \(hook.name) credentialsFile")
                    guard let colon = text.firstIndex(of: ":") else {
                        throw DaemonError("hook \(hook.name): \(credentialsFile) must hold username:password on one line")
                    }
                    username = String(text[..<colon])
                    password = String(text[text.index(after: colon)...])
                }
                out[hook.name] = EmailTransport(smtpURL: smtpURL, from: from, to: to, username: username, password: password, caFile: caFile,
                                               rules: { rules.snapshot.rules })
            case .command(let path, let args, let timeout):
                if let problem = CommandTransport.validate(path: path) { throw DaemonError("hook \(hook.name): \(problem)") }
                out[hook.name] = CommandTransport(path: path, args: args, timeout: .milliseconds(Int(timeout * 1000)))
            }
        }
        return out
    }
}
