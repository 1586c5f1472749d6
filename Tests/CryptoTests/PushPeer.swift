import Foundation
import TestCommands

/// `scripts/push-crypto-peer`: the third-party Python libraries (cryptography, PyJWT,
/// py_vapid, http_ece) that make the keys and check what our code produced. One process per
/// call; the script installs its pinned venv on first use.
enum PushPeer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/push-crypto-peer").path

    /// The JSON object the command printed; throws with its stderr when it exits non-zero
    /// (the third-party library refused what it was given).
    static func run(_ arguments: [String]) throws -> [String: Any] {
        let output = try Command.run(["python3", script] + arguments)
        guard output.status == 0 else {
            throw PeerRefusal(description: "push-crypto-peer \(arguments.first ?? ""): \(output.stderr)")
        }
        let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
        guard let dictionary = object as? [String: Any] else { throw PeerRefusal(description: "not a JSON object: \(output.stdout)") }
        return dictionary
    }
}

struct PeerRefusal: Error, CustomStringConvertible {
    let description: String
}

/// One set of keys made by the `cryptography` package, shared by the tests of a run (making an
/// RSA key takes a moment): `ec-pkcs8.pem`, `ec-sec1.pem`, their `.pub.pem`, `ec-p384.pem`,
/// `rsa.pem` (2048) and `rsa.pub.pem`, `rsa-1024.pem`, `ed25519.pem`, `ec-encrypted.pem`,
/// `ec-public-only.pem`; `points` holds the P-256 keys' public points as Python computed them.
final class PeerKeys: Sendable {
    static let shared: Result<PeerKeys, any Error> = Result { try PeerKeys() }

    let directory: String
    let points: [String: String]

    private init() throws {
        let scratch = try Scratch(prefix: "PushCryptoTests")
        directory = scratch.url.path
        let printed = try PushPeer.run(["keys", directory])
        points = printed.compactMapValues { $0 as? String }
    }

    func path(_ name: String) -> String { directory + "/" + name }

    static func get() throws -> PeerKeys { try shared.get() }
}
