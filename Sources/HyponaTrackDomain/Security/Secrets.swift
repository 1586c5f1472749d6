import Crypto

/// Generation, parsing and hashing of the server's bearer tokens and activation codes.
///
/// Every secret comes from OpenSSL's CSPRNG (`Crypto.randomBytes`, i.e. `RAND_bytes`, seeded
/// by the OS) and is stored only as a hash; the plain value exists once, in the response that
/// hands it out.
public enum Secrets {
    /// The kind of bearer token, told apart by its prefix so a token can be routed to the
    /// right table (and recognised in a leaked log) without a lookup.
    public enum TokenKind: String, Sendable, CaseIterable {
        case staff = "hts_"
        case patient = "htp_"
    }

    /// Random bytes per token: 256 bits, far beyond guessing.
    static let tokenByteCount = 32
    /// Length of the base64url text of 32 bytes without padding: ceil(32 * 8 / 6).
    static let tokenBodyLength = 43

    /// A new token: the kind's prefix followed by 32 CSPRNG bytes in base64url without padding
    /// (RFC 4648 §5), e.g. `hts_q3V…` (47 characters).
    public static func newToken(_ kind: TokenKind) throws -> String {
        kind.rawValue + Base64.url.encode(try Crypto.randomBytes(tokenByteCount))
    }

    /// The kind of a well-formed token (prefix, then exactly 43 base64url characters), or nil
    /// for anything else, so garbage is refused before touching the database.
    public static func tokenKind(of token: String) -> TokenKind? {
        let utf8 = Array(token.utf8)
        guard utf8.count == 4 + tokenBodyLength else { return nil }
        guard let kind = TokenKind.allCases.first(where: { utf8.starts(with: $0.rawValue.utf8) }) else {
            return nil
        }
        return utf8.dropFirst(4).allSatisfy(isBase64URLByte) ? kind : nil
    }

    /// The stored form of a token: lower-case hex SHA-256 of its UTF-8 text.
    ///
    /// A fast, unsalted hash is right here: a token carries 256 random bits, so neither
    /// brute force nor precomputed tables can invert the digest, and a slow KDF would only
    /// cost time on every authenticated request. (Slow hashes exist for low-entropy
    /// passwords.)
    public static func tokenHash(_ token: String) -> String {
        Crypto.hex(Crypto.sha256(Array(token.utf8)))
    }

    // MARK: Activation codes

    /// The code alphabet: digits and capitals without 0/O and 1/I, which are easily confused
    /// when read off paper. 32 symbols, so one random byte maps to one symbol uniformly
    /// (256 is a multiple of 32: `byte % 32` has no modulo bias, no rejection needed).
    public static let activationAlphabet = Array("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")
    /// Characters per code: 10 × 5 bits = 50 bits.
    public static let activationCodeLength = 10

    /// A new activation code in canonical form (10 upper-case alphabet characters, no dash).
    public static func newActivationCode() throws -> String {
        let bytes = try Crypto.randomBytes(activationCodeLength)
        return String(bytes.map { activationAlphabet[Int($0 % 32)] })
    }

    /// A canonical code shown in two groups of five, `ABCDE-FGHJK`, for reading aloud or off
    /// paper. `normalizedActivationCode` accepts this form back.
    public static func groupedActivationCode(_ code: String) -> String {
        guard code.count == activationCodeLength else { return code }
        return "\(code.prefix(5))-\(code.suffix(5))"
    }

    /// The canonical form of a code as typed by a patient: case-insensitive, with dashes and
    /// spaces ignored; nil unless exactly 10 alphabet characters remain.
    public static func normalizedActivationCode(_ input: String) -> String? {
        // ASCII only: `uppercased()` would turn e.g. "ß" into "SS", inventing characters.
        guard input.utf8.count <= 64, input.allSatisfy(\.isASCII) else { return nil }
        let kept = input.uppercased().filter { $0 != "-" && !$0.isWhitespace }
        guard kept.count == activationCodeLength, kept.allSatisfy(activationAlphabet.contains) else {
            return nil
        }
        return kept
    }

    /// The stored form of a code: hex SHA-256 of `activation-code:v1:<patientId>:<code>`.
    ///
    /// A code carries only 50 bits, so its hash is salted with the patient id: no table can be
    /// precomputed and one offline search cannot cover several patients at once. That, not a
    /// slow KDF, is enough because a code is short-lived (72 h), single use and worthless once
    /// used, online guessing is locked after 5 tries per 15 minutes, and an offline search
    /// (~2^49 hashes per patient) needs a copy of the database, which already holds all the
    /// study data the code would give access to.
    public static func activationCodeHash(normalizedCode: String, patientId: Int64) -> String {
        Crypto.hex(Crypto.sha256(Array("activation-code:v1:\(patientId):\(normalizedCode)".utf8)))
    }

    /// Whether two stored hashes are equal, compared in constant time. The database lookup
    /// already matched them; comparing again keeps the decision itself independent of how
    /// SQLite compares strings.
    static func hashesMatch(_ a: String, _ b: String) -> Bool {
        Crypto.constantTimeEquals(Array(a.utf8), Array(b.utf8))
    }

    // MARK: Base64url

    private static func isBase64URLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
