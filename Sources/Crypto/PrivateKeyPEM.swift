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
        let blocks = self.blocks(in: pem)
        guard let first = blocks.first else {
            throw KeyError(.notPEM, source: source, detail: "no -----BEGIN …----- line")
        }
        guard let block = blocks.first(where: { privateKeyLabels.contains($0.label) }) else {
            if blocks.contains(where: { $0.label == "ENCRYPTED PRIVATE KEY" }) {
                throw KeyError(.encrypted, source: source, detail: "an ENCRYPTED PRIVATE KEY block")
            }
            throw KeyError(.notAPrivateKey, source: source, detail: "a \(first.label) block")
        }
        // RFC 1421 headers of the traditional forms: a passphrase-protected SEC1 or PKCS#1 key.
        guard find(Array("Proc-Type: 4,ENCRYPTED".utf8), in: pem[block.bytes]) == nil else {
            throw KeyError(.encrypted, source: source, detail: "a \(block.label) block with Proc-Type: 4,ENCRYPTED")
        }
        // Only the private-key block goes to OpenSSL: given the whole file, OpenSSL 3.0 was seen
        // to hand back the parameters of an `EC PARAMETERS` block before the key (what
        // `openssl ecparam -genkey` writes) as if they were the key. The callback refuses any
        // passphrase request: without one OpenSSL would prompt on the terminal.
        let key: OpaquePointer? = pem[block.bytes].withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
        }
        ERR_clear_error()
        guard let key else {
            throw KeyError(.malformed, source: source, detail: "the \(block.label) block could not be decoded")
        }
        return key
    }

    /// The `-----BEGIN label-----` … `-----END label-----` blocks, in order: each label and the
    /// range of its bytes, BEGIN line to END line. Searched as bytes: the key's base64 is never
    /// copied into a `String` that nobody wipes.
    static func blocks(in pem: [UInt8]) -> [(label: String, bytes: Range<Int>)] {
        let begin = Array("-----BEGIN ".utf8), dashes = Array("-----".utf8)
        var blocks: [(label: String, bytes: Range<Int>)] = []
        var index = 0
        while let start = find(begin, in: pem[index...]) {
            let labelStart = start + begin.count
            guard let labelEnd = find(dashes, in: pem[labelStart...]) else { break }
            let label = Array(pem[labelStart..<labelEnd])
            index = labelEnd + dashes.count
            let endLine = Array("-----END ".utf8) + label + dashes
            guard label.count <= 64, !label.contains(UInt8(ascii: "\n")),
                  let end = find(endLine, in: pem[index...]) else { continue }
            blocks.append((String(decoding: label, as: UTF8.self), start..<end + endLine.count))
            index = end + endLine.count
        }
        return blocks
    }

    /// The index (in `haystack`'s indices) where `needle` first occurs.
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        for index in haystack.startIndex...(haystack.endIndex - needle.count)
        where haystack[index] == needle[0] && haystack[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
