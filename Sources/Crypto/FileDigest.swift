import Foundation
import COpenSSL

extension Crypto {
    /// SHA-256 of the file at `path`, read in 1 MiB pieces (a database backup may be larger
    /// than memory should hold at once). Throws `FileDigestError` when the file cannot be read.
    public static func sha256(fileAt path: String) throws(FileDigestError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileDigestError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard let context = EVP_MD_CTX_new() else { throw FileDigestError(description: "EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { throw FileDigestError(description: "EVP_DigestInit_ex failed") }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw FileDigestError(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            guard buffer.withUnsafeBytes({ EVP_DigestUpdate(context, $0.baseAddress, n) }) == 1 else {
                throw FileDigestError(description: "EVP_DigestUpdate failed")
            }
        }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { throw FileDigestError(description: "EVP_DigestFinal_ex failed") }
        return Array(digest.prefix(Int(length)))
    }
}

/// A file that could not be hashed: what failed, with the system's reason.
public struct FileDigestError: Error, CustomStringConvertible {
    public let description: String
}
