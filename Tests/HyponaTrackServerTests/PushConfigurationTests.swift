import Foundation
import HTJSON
import Testing
@testable import HyponaTrackConfigFile
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport

/// `push` in `hyponatrack.json` and the keys it names (docs/product.md, W, "Configuration"):
/// typed values with the defaults, refusals naming the key, and key files that must be
/// owner-only and hold the right kind of key, refused with a message that names the key.
@Suite struct PushConfigurationTests {
    static func parse(_ json: JSONValue) throws(FieldError) -> ServerConfiguration {
        try ServerConfiguration.parse(json, directory: URL(fileURLWithPath: "/etc/ht"), file: nil)
    }

    static let block: JSONValue = ["push": [
        "apns": ["keyFile": "apns.p8", "keyId": "ABCDEFGHIJ", "teamId": "KLMNOPQRST", "topic": "org.example.hyponatrack"],
        "fcm": ["serviceAccountFile": "/etc/ht/fcm.json", "url": "https://127.0.0.1:9443"],
        "webPush": ["vapidKeyFile": "vapid.pem", "subject": "mailto:study@example.org", "allowedHosts": ["127.0.0.1"]],
        "caFile": "ca.pem",
    ]]

    @Test func noPushBlockConfiguresNoPlatform() throws {
        #expect(try Self.parse([:]).push.configuredPlatforms.isEmpty)
    }

    @Test func thePushBlockIsReadWithDefaultsAndRelativePaths() throws {
        let push = try Self.parse(Self.block).push
        #expect(push.configuredPlatforms == [.apns, .fcm, .webpush])
        #expect(push.apns?.keyFile == "/etc/ht/apns.p8")
        #expect(push.apns?.url == "https://api.push.apple.com")
        #expect(push.fcm?.url == "https://127.0.0.1:9443")
        #expect(push.webPush?.allowedHosts == ["127.0.0.1"])
        #expect(push.caFile == "/etc/ht/ca.pem")
        let defaults = try Self.parse(["push": ["webPush": ["vapidKeyFile": "v.pem", "subject": "https://example.org/contact"]]])
        #expect(defaults.push.webPush?.allowedHosts == WebPushEndpointPolicy.defaultAllowedHosts)
    }

    @Test func mistakesAreRefusedNamingTheKey() {
        let cases: [(JSONValue, String)] = [
            (["push": ["apns": ["keyFile": "a.p8", "keyId": "short", "teamId": "KLMNOPQRST", "topic": "t"]]], "push.apns.keyId"),
            (["push": ["apns": ["keyFile": "a.p8", "keyId": "ABCDEFGHIJ", "teamId": "KLMNOPQRST", "topic": "t",
                                "url": "http://api.push.apple.com"]]], "push.apns.url"),
            (["push": ["fcm": [:]]], "push.fcm.serviceAccountFile"),
            (["push": ["webPush": ["vapidKeyFile": "v.pem", "subject": "study@example.org"]]], "push.webPush.subject"),
            (["push": ["webPush": ["vapidKeyFile": "v.pem", "subject": "mailto:a@b.org", "allowedHosts": ["a/b"]]]],
             "push.webPush.allowedHosts[0]"),
            (["push": ["sms": [:]]], "push.sms"),
        ]
        for (json, key) in cases {
            #expect(throws: FieldError.self, "\(key)") { _ = try Self.parse(json) }
            do { _ = try Self.parse(json) } catch { #expect(error.field == key, "\(error)") }
        }
    }

    static func configuration(_ keys: PushTestKeys) -> ServerConfiguration.Push {
        var push = ServerConfiguration.Push()
        push.apns = .init(keyFile: keys.apnsKeyFile, keyId: "ABCDEFGHIJ", teamId: "KLMNOPQRST", topic: "org.test")
        push.fcm = .init(serviceAccountFile: keys.serviceAccountFile)
        push.webPush = .init(vapidKeyFile: keys.vapidKeyFile, subject: "mailto:study@example.org")
        return push
    }

    static func keys() throws -> PushTestKeys {
        try PushTestKeys(in: FileManager.default.temporaryDirectory.appendingPathComponent("ht-push-keys-\(UUID().uuidString)"))
    }

    @Test func usableKeyFilesAreLoaded() throws {
        let keys = try Self.keys()
        let loaded = try PushKeys.load(Self.configuration(keys), environment: [:])
        #expect(loaded.apns != nil)
        #expect(loaded.vapid?.publicKeyBase64URL.count == 87, "65 bytes in base64url without padding")
        #expect(loaded.fcm?.projectId == "hyponatrack-test")
        #expect(loaded.fcm?.key.bits == 2048)
    }

    @Test func aKeyFileOthersCanReadIsRefusedNamingItsKey() throws {
        let keys = try Self.keys()
        chmod(keys.apnsKeyFile, 0o644)
        #expect { try PushKeys.load(Self.configuration(keys), environment: [:]) } throws: { error in
            "\(error)".contains("push.apns.keyFile") && "\(error)".contains("owner only")
        }
    }

    @Test func theWrongKindOfKeyIsRefusedNamingItsKeyAndNeverQuotingIt() throws {
        let keys = try Self.keys()
        // An RSA key where the VAPID key (P-256) belongs.
        let rsa = try String(contentsOfFile: keys.serviceAccountFile, encoding: .utf8)
        let pem = try #require(try JSONSerialization.jsonObject(with: Data(rsa.utf8)) as? [String: String])["private_key"]!
        try pem.write(toFile: keys.vapidKeyFile, atomically: false, encoding: .utf8)
        #expect { try PushKeys.load(Self.configuration(keys), environment: [:]) } throws: { error in
            "\(error)".contains("push.webPush.vapidKeyFile") && !"\(error)".contains("PRIVATE KEY-----\n")
        }
    }

    @Test func aServiceAccountWithoutItsPrivateKeyIsRefusedNamingTheMember() throws {
        let keys = try Self.keys()
        try #"{"type": "service_account", "project_id": "p", "client_email": "a@b", "token_uri": "https://x/token"}"#
            .write(toFile: keys.serviceAccountFile, atomically: false, encoding: .utf8)
        #expect { try PushKeys.load(Self.configuration(keys), environment: [:]) } throws: { error in
            "\(error)".contains("push.fcm.serviceAccountFile") && "\(error)".contains("private_key")
        }
    }

    @Test func aMissingKeyFileMayComeFromSystemdCredentials() throws {
        let keys = try Self.keys()
        var push = Self.configuration(keys)
        let credentials = URL(fileURLWithPath: keys.apnsKeyFile).deletingLastPathComponent().path
        try FileManager.default.copyItem(atPath: keys.apnsKeyFile, toPath: credentials + "/apns-key")
        push.apns?.keyFile = "/nonexistent/apns.p8"
        #expect(try PushKeys.load(push, environment: ["CREDENTIALS_DIRECTORY": credentials]).apns != nil)
        #expect(throws: (any Error).self) { try PushKeys.load(push, environment: [:]) }
    }
}
