import Foundation

/// Key files for the push services, made by `openssl` in a directory (mode 0600), as an
/// operator would: an APNs `.p8` (PKCS#8 P-256), a VAPID key (SEC1 P-256) and an FCM service
/// account JSON with an RSA-2048 key.
struct PushTestKeys {
    let apnsKeyFile: String
    let vapidKeyFile: String
    let serviceAccountFile: String

    init(in directory: URL, tokenURI: String = "https://127.0.0.1:1/token") throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        apnsKeyFile = directory.appendingPathComponent("apns.p8").path
        vapidKeyFile = directory.appendingPathComponent("vapid.pem").path
        serviceAccountFile = directory.appendingPathComponent("fcm.json").path
        try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", apnsKeyFile])
        try Self.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", vapidKeyFile])
        let rsa = directory.appendingPathComponent("fcm-key.pem").path
        try Self.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", rsa])
        let pem = try String(contentsOfFile: rsa, encoding: .utf8)
        let account: [String: String] = ["type": "service_account", "project_id": "hyponatrack-test", "private_key_id": "k1",
                                          "private_key": pem, "client_email": "push@hyponatrack-test.iam.gserviceaccount.com",
                                          "token_uri": tokenURI]
        try JSONSerialization.data(withJSONObject: account).write(to: URL(fileURLWithPath: serviceAccountFile))
        for file in [apnsKeyFile, vapidKeyFile, serviceAccountFile, rsa] { chmod(file, 0o600) }
    }

    static func openssl(_ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TestError("openssl \(arguments.first ?? "") failed") }
    }
}
