import Testing
@testable import Crypto

/// RFC 6238 appendix B's SHA-1 vectors (8 digits there; the last 6 are the 6-digit code), the
/// ±1 step window, and AES-256-GCM refusing a wrong key, row binding or byte.
@Suite struct TOTPTests {
    static let secret = Array("12345678901234567890".utf8)

    @Test(arguments: [(Int64(59), "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"),
                      (1_234_567_890, "005924"), (2_000_000_000, "279037"), (20_000_000_000, "353130")])
    func codesMatchTheRFC6238Vectors(seconds: Int64, code: String) {
        #expect(TOTP.code(secret: Self.secret, step: TOTP.step(atSeconds: seconds)) == code)
    }

    @Test func aCodeMatchesOnlyWithinOneStepEitherSide() {
        let now = TOTP.step(atSeconds: 1_234_567_890)
        for offset in Int64(-1)...1 {
            #expect(TOTP.matchingStep(secret: Self.secret, code: TOTP.code(secret: Self.secret, step: now + offset), around: now) == now + offset)
        }
        #expect(TOTP.matchingStep(secret: Self.secret, code: TOTP.code(secret: Self.secret, step: now - 2), around: now) == nil)
        #expect(TOTP.matchingStep(secret: Self.secret, code: TOTP.code(secret: Self.secret, step: now + 2), around: now) == nil)
    }

    @Test func base32EncodesAsRFC4648() {
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(Base32.encode(Self.secret) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    }

    @Test func aSealedSecretOpensOnlyWithItsKeyAndBindingUntouched() throws {
        let key = [UInt8](repeating: 7, count: 32), other = [UInt8](repeating: 8, count: 32)
        let sealed = try AES256GCM.seal(Self.secret, key: key, additionalData: Array("row 1".utf8))
        #expect(!sealed.isEmpty && sealed.count == Self.secret.count + 28)
        #expect(AES256GCM.open(sealed, key: key, additionalData: Array("row 1".utf8)) == Self.secret)
        #expect(AES256GCM.open(sealed, key: other, additionalData: Array("row 1".utf8)) == nil)
        #expect(AES256GCM.open(sealed, key: key, additionalData: Array("row 2".utf8)) == nil)
        var flipped = sealed
        flipped[14] ^= 1
        #expect(AES256GCM.open(flipped, key: key, additionalData: Array("row 1".utf8)) == nil)
        #expect(try AES256GCM.seal(Self.secret, key: key, additionalData: []) != AES256GCM.seal(Self.secret, key: key, additionalData: []))
    }
}
