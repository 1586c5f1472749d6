import Foundation

/// A throwaway CA and server certificates signed by it, made with the `openssl` CLI
/// (EC P-256 keys: quick to generate).
struct TestCertificates {
    let directory: URL
    /// The CA certificate (PEM) a client should trust.
    let caFile: URL

    /// Creates the CA in `directory`.
    init(in directory: URL) throws {
        self.directory = directory
        caFile = directory.appendingPathComponent("ca.pem")
        try Self.openssl(in: directory, [
            "req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=HyponaTrack Test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
    }

    /// A server certificate and key signed by the CA, valid for `subjectAltName`
    /// (e.g. `IP:127.0.0.1,DNS:localhost`).
    func serverCertificate(name: String, subjectAltName: String) throws -> (certificate: URL, key: URL) {
        let extensions = directory.appendingPathComponent("\(name).ext")
        try """
        subjectAltName=\(subjectAltName)
        basicConstraints=CA:FALSE
        keyUsage=critical,digitalSignature
        extendedKeyUsage=serverAuth
        subjectKeyIdentifier=hash
        authorityKeyIdentifier=keyid

        """.write(to: extensions, atomically: true, encoding: .utf8)
        try Self.openssl(in: directory, [
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(name)",
        ])
        try Self.openssl(in: directory, [
            "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "\(name).pem", "-days", "2", "-extfile", "\(name).ext",
        ])
        return (directory.appendingPathComponent("\(name).pem"), directory.appendingPathComponent("\(name).key"))
    }

    private static func openssl(in directory: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PeerFailure(description: "openssl \(arguments.first ?? "") failed")
        }
    }
}
