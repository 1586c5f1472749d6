import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// Reads an unencrypted private key from PEM into an `EVP_PKEY`, and says in a `KeyError` what
/// else it found. The PEM labels are looked at first (RFC 7468 §2: `-----BEGIN label-----`), so
/// that a public key, a certificate or an encrypted key is named as such instead of showing up
/// as an opaque libcrypto failure.
enum PrivateKeyPEM {
    /// RFC 7468 §10 (`PRIVATE KEY`, PKCS#8, Apple's `.p8`), RFC 5915 §4 (`EC PRIVATE KEY`,
    /// SEC1) and PKCS#1 (`RSA PRIVATE KEY`).
    static let privateKeyLabels: Set<String> = ["PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY"]

    /// The bytes of the file at `path`, read through a BIO so that no other layer holds them;
    /// the caller wipes them.
    static func read(file path: String, source: String) throws(KeyError) -> [UInt8] {
        guard let bio = BIO_new_file(path, "rb") else {
            let reason = String(cString: strerror(errno))
            ERR_clear_error()
            throw KeyError(.unreadable, source: source, detail: reason)
        }
        defer { BIO_free(bio) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { Crypto.wipe(&chunk) }
        while true {
            let count = chunk.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
            if count <= 0 { break }
            guard bytes.count + Int(count) <= 1 << 20 else {
                Crypto.wipe(&bytes)
                throw KeyError(.notPEM, source: source, detail: "more than 1 MiB, not a key file")
            }
            bytes += chunk[0..<Int(count)]
        }
        return bytes
    }

    /// Parses the first private key in `pem`. The caller owns (and frees) the result.
    static func parse(_ pem: [UInt8], source: String) throws(KeyError) -> OpaquePointer {
        let labels = self.labels(in: pem)
        guard let first = labels.first else {
            throw KeyError(.notPEM, source: source, detail: "no -----BEGIN …----- line")
        }
        guard labels.contains(where: privateKeyLabels.contains) else {
            if labels.contains("ENCRYPTED PRIVATE KEY") {
                throw KeyError(.encrypted, source: source, detail: "an ENCRYPTED PRIVATE KEY block")
            }
            throw KeyError(.notAPrivateKey, source: source, detail: "a \(first) block")
        }
        // RFC 1421 headers of the traditional forms: a passphrase-protected SEC1 or PKCS#1 key.
        guard find(Array("Proc-Type: 4,ENCRYPTED".utf8), in: pem, from: 0) == nil else {
            throw KeyError(.encrypted, source: source, detail: "a PEM block with Proc-Type: 4,ENCRYPTED")
        }
        let key: OpaquePointer? = pem.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            // PEM_read_bio_PrivateKey(3) skips blocks it does not want (an `EC PARAMETERS` block
            // before the key, as `openssl ecparam -genkey` writes). The callback refuses any
            // passphrase request: without one OpenSSL would prompt on the terminal.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
        }
        ERR_clear_error()
        guard let key else {
            throw KeyError(.malformed, source: source, detail: "the private-key block could not be decoded")
        }
        return key
    }

    /// The labels of the `-----BEGIN label-----` lines that have a matching END line, in order.
    /// Searched as bytes: the key's base64 is never copied into a `String` that nobody wipes.
    static func labels(in pem: [UInt8]) -> [String] {
        let begin = Array("-----BEGIN ".utf8), dashes = Array("-----".utf8)
        var labels: [String] = []
        var index = 0
        while let start = find(begin, in: pem, from: index) {
            let labelStart = start + begin.count
            guard let labelEnd = find(dashes, in: pem, from: labelStart) else { break }
            let label = Array(pem[labelStart..<labelEnd])
            index = labelEnd + dashes.count
            guard label.count <= 64, !label.contains(UInt8(ascii: "\n")),
                  find(Array("-----END ".utf8) + label + dashes, in: pem, from: index) != nil else { continue }
            labels.append(String(decoding: label, as: UTF8.self))
        }
        return labels
    }

    /// The first index of `needle` in `haystack` at or after `from`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard needle.count <= haystack.count, from <= haystack.count - needle.count else { return nil }
        for index in from...(haystack.count - needle.count)
        where haystack[index] == needle[0] && haystack[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
