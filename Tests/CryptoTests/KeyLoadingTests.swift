import Foundation
import Testing
import TestCommands
import Crypto

/// Keys made by Python's `cryptography`, loaded by our `Crypto`, and the keys it must refuse.
@Suite struct KeyLoadingTests {
    /// Without its atexit handler, as the daemon does (docs: it races Swift's teardown at exit).
    init() { Crypto.initialize() }

    @Test func aPKCS8P256KeyLoadsWithThePublicPointPythonComputes() throws {
        let keys = try PeerKeys.get()
        let key = try P256PrivateKey(pemFile: keys.path("ec-pkcs8.pem"), source: "test key")
        #expect(key.publicKey.count == 65 && key.publicKey[0] == 0x04)
        #expect(key.publicKeyBase64URL == keys.points["ec-pkcs8"])
    }

    @Test func aSEC1P256KeyLoadsWithThePublicPointPythonComputes() throws {
        let keys = try PeerKeys.get()
        let key = try P256PrivateKey(pemFile: keys.path("ec-sec1.pem"), source: "test key")
        #expect(key.publicKeyBase64URL == keys.points["ec-sec1"])
    }

    @Test func aKeyFromOpenSSLEcparamLoadsPastItsECParametersBlock() throws {
        let scratch = try Scratch(prefix: "PushCryptoTests")
        defer { scratch.remove() }
        let path = scratch.path("ecparam.pem")
        let made = try Command.run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-out", path])
        try #require(made.status == 0, "openssl ecparam: \(made.stderr)")
        let pem = try scratch.bytes("ecparam.pem")
        #expect(String(decoding: pem, as: UTF8.self).hasPrefix("-----BEGIN EC PARAMETERS-----"))
        let key = try P256PrivateKey(pem: pem, source: "openssl ecparam key")
        let der = try Command.run(["sh", "-c", "openssl ec -in '\(path)' -pubout -conv_form uncompressed -outform DER | tail -c 65 | base64 -w0"])
        #expect(Data(base64Encoded: der.stdout).map(Array.init) == key.publicKey)
    }

    @Test func anRSAServiceAccountKeyLoadsWithItsSize() throws {
        let key = try RSAPrivateKey(pemFile: try PeerKeys.get().path("rsa.pem"), source: "test key")
        #expect(key.bits == 2048)
    }

    /// A key file `cryptography` wrote that the loader must refuse, and what it must say.
    struct RefusedFile: Sendable, CustomTestStringConvertible {
        let file: String
        let asRSA: Bool
        let code: KeyError.Code
        let detail: String
        var testDescription: String { "\(file) as \(asRSA ? "RSA" : "P-256") → \(code)" }
    }

    static let refusedFiles = [
        RefusedFile(file: "ec-p384.pem", asRSA: false, code: .wrongCurve, detail: "secp384r1"),
        RefusedFile(file: "rsa.pem", asRSA: false, code: .wrongKeyType, detail: "an RSA key"),
        RefusedFile(file: "ec-pkcs8.pem", asRSA: true, code: .wrongKeyType, detail: "an EC key"),
        RefusedFile(file: "ed25519.pem", asRSA: false, code: .wrongKeyType, detail: "ED25519"),
        RefusedFile(file: "rsa-1024.pem", asRSA: true, code: .tooShort, detail: "1024 bits"),
        RefusedFile(file: "ec-public-only.pem", asRSA: false, code: .notAPrivateKey, detail: "PUBLIC KEY"),
        RefusedFile(file: "ec-encrypted.pem", asRSA: false, code: .encrypted, detail: "ENCRYPTED PRIVATE KEY"),
    ]

    /// Wrong curve, wrong type, too short, a public key, an encrypted key: each refused with its
    /// code, the source named, and not one line (nor 12 characters in a row) of the key file in
    /// the message. An encrypted key is refused without a passphrase prompt (the test would hang).
    @Test(arguments: refusedFiles)
    func aKeyFileThatCannotServeIsRefusedSayingWhyWithoutItsContents(refused: RefusedFile) throws {
        let keys = try PeerKeys.get()
        let source = "push.key (\(keys.path(refused.file)))"
        let error = try refusal {
            refused.asRSA ? try RSAPrivateKey(pemFile: keys.path(refused.file), source: source) as Any
                : try P256PrivateKey(pemFile: keys.path(refused.file), source: source) as Any
        }
        #expect(error.code == refused.code)
        #expect(error.detail.contains(refused.detail), "\(error.detail)")
        #expect(error.description.hasPrefix(source))
        let body = try String(contentsOfFile: keys.path(refused.file), encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("-----") }.joined()
        #expect(body.count > 40)
        for chunk in body.chunks(of: 12) { #expect(!error.description.contains(chunk)) }
    }

    @Test func garbageIsRefusedAsNotPEM() throws {
        let error = try refusal { try P256PrivateKey(pem: Array("{\"private_key\": 42}".utf8), source: "vapid") }
        #expect(error.code == .notPEM)
    }

    @Test func aDamagedPrivateKeyBlockIsRefusedAsMalformed() throws {
        let pem = "-----BEGIN PRIVATE KEY-----\nTm90IGEga2V5IGF0IGFsbA==\n-----END PRIVATE KEY-----\n"
        let error = try refusal { try P256PrivateKey(pem: Array(pem.utf8), source: "vapid") }
        #expect(error.code == .malformed)
    }

    @Test func aMissingFileIsRefusedAsUnreadableNamingTheSource() throws {
        let error = try refusal { try P256PrivateKey(pemFile: "/nonexistent/AuthKey.p8", source: "push.apns.keyFile (/nonexistent/AuthKey.p8)") }
        #expect(error.code == .unreadable)
        #expect(error.description.contains("/nonexistent/AuthKey.p8"))
    }

    private func refusal(_ body: () throws -> Any) throws -> KeyError {
        do {
            _ = try body()
        } catch let error as KeyError {
            return error
        }
        throw PeerRefusal(description: "the key was accepted")
    }
}

extension String {
    /// Consecutive pieces of `size` characters (the last may be shorter).
    func chunks(of size: Int) -> [String] {
        stride(from: 0, to: count, by: size).map { start in
            let from = index(startIndex, offsetBy: start)
            return String(self[from..<(index(from, offsetBy: size, limitedBy: endIndex) ?? endIndex)])
        }
    }
}
