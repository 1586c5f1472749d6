import Crypto
import Foundation
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Where the audit key comes from, and what is refused (docs/operations.md §4.2).
@Suite struct AuditKeySourceTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("htkey-\(UUID().uuidString)")
    var dataDirectory: URL { root.appendingPathComponent("data") }
    static let hex = String(repeating: "0123456789abcdef", count: 4)

    func configuration(keyFile: String? = nil) -> ServerConfiguration {
        var c = ServerConfiguration(baseDirectory: root, dataDirectory: dataDirectory)
        c.audit.keyFile = keyFile
        return c
    }

    func write(_ text: String, _ name: String, mode: mode_t = 0o600) throws -> String {
        let file = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: false, encoding: .utf8)
        #expect(chmod(file.path, mode) == 0)
        return file.path
    }

    func load(_ configuration: ServerConfiguration, environment: [String: String] = [:], log: CapturedLog = CapturedLog()) throws -> AuditKey {
        try AuditKeySource.load(configuration: configuration, environment: environment, logger: log.logger)
    }

    func message(_ body: () throws -> AuditKey) -> String {
        do { _ = try body(); return "" } catch { return "\(error)" }
    }

    @Test func aKeyFileHoldsAtLeast64HexDigits() throws {
        #expect(try AuditKey(hexText: Self.hex.uppercased() + "\n", source: "f").fingerprint == AuditKey(hexText: Self.hex, source: "g").fingerprint)
        #expect(message { try AuditKey(hexText: String(Self.hex.dropLast(2)), source: "f") }.contains("at least 32 bytes"))
        #expect(message { try AuditKey(hexText: "zz" + Self.hex, source: "f") }.contains("hexadecimal"))
        #expect(message { try AuditKey(hexText: Self.hex + "0", source: "f") }.contains("hexadecimal"))
    }

    @Test func theKeyNeverAppearsInItsDescription() throws {
        let key = try AuditKey(hexText: Self.hex, source: "f")
        #expect(!"\(key)".contains(Self.hex) && "\(key)".contains(key.fingerprint))
    }

    @Test func aConfiguredKeyFileIsUsedBeforeTheCredential() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try write(Self.hex, "etc/audit-key")
        let credentials = try write(String(repeating: "ff", count: 32), "credentials/audit-key")
        let key = try load(configuration(keyFile: file), environment: ["CREDENTIALS_DIRECTORY": (credentials as NSString).deletingLastPathComponent])
        #expect(key.source == "audit.keyFile \(file)")
        #expect(key.fingerprint == (try AuditKey(hexText: Self.hex, source: "x")).fingerprint)
    }

    @Test func aGroupReadableKeyFileIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try write(Self.hex, "etc/audit-key", mode: 0o640)
        #expect(message { try load(configuration(keyFile: file)) }.contains("must be readable by its owner only (chmod 600), it is 640"))
    }

    @Test func aKeyFileInsideTheDataDirectoryIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try write(Self.hex, "data/keys/audit-key")
        #expect(message { try load(configuration(keyFile: file)) }.contains("must not be inside the data directory"))
        // Also through a symbolic link that points into it.
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link").path, withDestinationPath: file)
        #expect(message { try load(configuration(keyFile: root.appendingPathComponent("link").path)) }.contains("inside the data directory"))
    }

    @Test func aMissingConfiguredKeyFileIsRefusedRatherThanReplaced() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("etc/audit-key").path
        #expect(message { try load(configuration(keyFile: file)) }.contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(!FileManager.default.fileExists(atPath: AuditKeySource.besideDataDirectory(dataDirectory)))
    }

    @Test func theSystemdCredentialIsTakenAsSystemdProvidesIt() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let credential = try write(Self.hex + "\n", "credentials/audit-key", mode: 0o440)
        let log = CapturedLog()
        let key = try load(configuration(), environment: ["CREDENTIALS_DIRECTORY": (credential as NSString).deletingLastPathComponent], log: log)
        #expect(key.source == "$CREDENTIALS_DIRECTORY/audit-key")
        #expect(log.all.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: AuditKeySource.besideDataDirectory(dataDirectory)))
    }

    @Test func withoutEitherAKeyIsCreatedBesideTheDataDirectoryOnceAndAWarningSaysToMoveIt() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let log = CapturedLog()
        let first = try load(configuration(), log: log)
        let file = root.appendingPathComponent("audit-key").path
        #expect(AuditKeySource.besideDataDirectory(dataDirectory) == file && first.source == file)
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.count == 65 && text.hasSuffix("\n") && Crypto.bytes(hex: String(text.dropLast()))?.count == 32)
        #expect(log.all.contains { $0.contains("level=warning") && $0.contains("created a new audit key") && $0.contains(file) })
        let again = CapturedLog()
        #expect(try load(configuration(), log: again).fingerprint == first.fingerprint)
        #expect(again.all.contains { $0.contains("level=warning") && $0.contains("read from beside the data directory") })
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix("audit-key.") }
        #expect(leftovers.isEmpty)
    }
}
