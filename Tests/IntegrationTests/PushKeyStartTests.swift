import Foundation
import Testing

/// Push keys are configuration (docs/product.md, W, "Configuration"; operations §3.1): a key file
/// others can read, or one that holds the wrong kind of key, stops `--check-config` and the start
/// with exit 78 and a message naming the key and file — never the key itself.
@Suite struct PushKeyStartTests {
    static let push = """
        {"push": {"webPush": {"vapidKeyFile": "vapid.pem", "subject": "mailto:study@example.org"}}}
        """

    static func vapidKey(_ dir: ConfigDirectory, mode: mode_t) throws -> String {
        let file = dir.file("vapid.pem").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", file]
        try p.run()
        p.waitUntilExit()
        chmod(file, mode)
        return try String(contentsOfFile: file, encoding: .utf8)
    }

    @Test func aVAPIDKeyOthersCanReadStopsTheCheckAndTheStartWith78() throws {
        let dir = try ConfigDirectory(server: Self.push)
        let pem = try Self.vapidKey(dir, mode: 0o644)
        let check = try CheckConfigTests.check(dir)
        #expect(check.status == 78)
        #expect(check.stderr.contains("push.webPush.vapidKeyFile") && check.stderr.contains("owner only"), "\(check.stderr)")
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("push-start-\(UUID().uuidString)")
        let start = try CLIRunner.run(Repo.daemon, ["--config", dir.serverFile.path, "--data-dir", dataDir.path,
                                                    "--listen", "127.0.0.1:\(try TestDaemon.freePort())"])
        #expect(start.status == 78, "\(start.stderr)")
        #expect(start.stderr.contains("push.webPush.vapidKeyFile"))
        let body = pem.split(separator: "\n").dropFirst().first.map(String.init) ?? "-"
        #expect(!start.stderr.contains(body) && !check.stderr.contains(body), "the key is never quoted")
        #expect(chmod(dir.file("vapid.pem").path, 0o600) == 0)
        #expect(try CheckConfigTests.check(dir).status == 0)
    }

    @Test func anRSAKeyWhereTheVAPIDKeyBelongsIsRefusedNamingIt() throws {
        let dir = try ConfigDirectory(server: Self.push)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", dir.file("vapid.pem").path]
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        chmod(dir.file("vapid.pem").path, 0o600)
        let check = try CheckConfigTests.check(dir)
        #expect(check.status == 78)
        #expect(check.stderr.contains("push.webPush.vapidKeyFile"), "\(check.stderr)")
    }
}
