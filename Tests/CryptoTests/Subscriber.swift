import Foundation
import TestCommands
import Crypto

/// A browser's side of a push subscription, made by Python's `cryptography`: the private key
/// stays in its file, for http_ece to decrypt with.
struct Subscriber {
    let scratch: Scratch
    let p256dh: String
    let auth: String

    static func make() throws -> Subscriber {
        let scratch = try Scratch(prefix: "PushCryptoTests")
        let printed = try PushPeer.run(["subscriber", scratch.url.path])
        return Subscriber(scratch: scratch, p256dh: printed["p256dh"] as? String ?? "", auth: printed["auth"] as? String ?? "")
    }

    func subscription(endpoint: String = "https://push.example.net/push/abc") throws -> WebPushSubscription {
        try WebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth)
    }

    /// What http_ece decrypts `body` to with the subscriber's private key and auth secret.
    func decrypt(_ body: [UInt8]) throws -> [UInt8] {
        let name = "body-\(UUID().uuidString)"
        try scratch.write(body, to: name)
        let printed = try PushPeer.run(["decrypt-webpush", scratch.path("ua-private.pem"), auth, scratch.path(name)])
        return Base64.url.decode(printed["plaintext"] as? String ?? "!") ?? []
    }
}
