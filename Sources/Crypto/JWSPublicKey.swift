import COpenSSL

/// The JWS algorithms an ID token may be signed with here (RFC 7518 §3.1). Nothing else is
/// accepted: `none` (§3.6) and the HMAC family (which a public key must never verify) are
/// refused before any key is looked at.
public enum JWSAlgorithm: String, Sendable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256 (§3.3).
    case rs256 = "RS256"
    /// ECDSA with P-256 and SHA-256 (§3.4).
    case es256 = "ES256"
}

/// A public key from a JWK Set (RFC 7517): an RSA key (`kty` RSA, `n`, `e`; at least 2048 bits)
/// or a P-256 key (`kty` EC, `crv` P-256, `x`, `y`), and the one algorithm it verifies.
public struct JWSPublicKey: Sendable {
    public let algorithm: JWSAlgorithm
    let key: PKey

    /// An RSA public key from its big-endian modulus and exponent (EVP_PKEY-RSA(7) "n", "e").
    public static func rsa(modulus: [UInt8], exponent: [UInt8]) throws(KeyError) -> JWSPublicKey {
        let bits = modulus.drop { $0 == 0 }.count * 8
        guard bits >= 2048 else { throw KeyError(.tooShort, source: "JWK", detail: "RSA modulus of \(bits) bits") }
        guard !exponent.isEmpty, exponent.count <= 8 else { throw KeyError(.malformed, source: "JWK", detail: "RSA exponent") }
        // OSSL_PARAM_construct_BN takes the number in native byte order (OSSL_PARAM(3)).
        var n = Array(modulus.reversed()), e = Array(exponent.reversed())
        let key = try fromData(type: "RSA", selection: OSSL_KEYMGMT_SELECT_PUBLIC_KEY) { build in
            "n".withCString { nName in
                "e".withCString { eName in
                    n.withUnsafeMutableBytes { nb in
                        e.withUnsafeMutableBytes { eb in
                            build([OSSL_PARAM_construct_BN(nName, nb.baseAddress?.assumingMemoryBound(to: UInt8.self), nb.count),
                                   OSSL_PARAM_construct_BN(eName, eb.baseAddress?.assumingMemoryBound(to: UInt8.self), eb.count),
                                   OSSL_PARAM_construct_end()])
                        }
                    }
                }
            }
        }
        return JWSPublicKey(algorithm: .rs256, key: PKey(taking: key))
    }

    /// A P-256 public key from its 32-byte coordinates, checked to lie on the curve.
    public static func p256(x: [UInt8], y: [UInt8]) throws(KeyError) -> JWSPublicKey {
        guard x.count == 32, y.count == 32, let point = P256PublicKey(uncompressed: [0x04] + x + y) else {
            throw KeyError(.malformed, source: "JWK", detail: "not a P-256 point")
        }
        do { return JWSPublicKey(algorithm: .es256, key: PKey(taking: try point.makeKey())) } catch {
            throw KeyError(.malformed, source: "JWK", detail: "P-256 point")
        }
    }

    /// Whether `signature` is this key's JWS signature over `signingInput` (RFC 7515 §5.2 step
    /// 8). An ES256 signature is the 64-byte `R || S` of RFC 7518 §3.4, turned into the DER
    /// `ECDSA-Sig-Value` libcrypto verifies; any other length is refused.
    public func verifies(_ signature: [UInt8], over signingInput: [UInt8]) -> Bool {
        let der: [UInt8]
        switch algorithm {
        case .rs256: der = signature
        case .es256:
            guard signature.count == 64 else { return false }
            der = Self.derSignature(r: Array(signature.prefix(32)), s: Array(signature.suffix(32)))
        }
        return key.withKey { key in
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context); ERR_clear_error() }
            guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
            return EVP_DigestVerify(context, der, der.count, signingInput, signingInput.count) == 1
        }
    }

    /// `SEQUENCE { INTEGER r, INTEGER s }` (RFC 3279 §2.2.3), each integer minimal and positive.
    static func derSignature(r: [UInt8], s: [UInt8]) -> [UInt8] {
        func integer(_ bytes: [UInt8]) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty || value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(r) + integer(s)
        return [0x30, UInt8(body.count)] + body
    }

    /// An `EVP_PKEY` from parameters (EVP_PKEY_fromdata(3)); the caller owns it.
    private static func fromData(type: String, selection: Int32,
                                 _ parameters: (([OSSL_PARAM]) -> Int32) -> Int32) throws(KeyError) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
            throw KeyError(.malformed, source: "JWK", detail: "\(type) key context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        let ok = EVP_PKEY_fromdata_init(context) == 1 && parameters { list in
            var list = list
            return EVP_PKEY_fromdata(context, &key, selection, &list)
        } == 1
        ERR_clear_error()
        guard ok, let key else { throw KeyError(.malformed, source: "JWK", detail: "\(type) public key") }
        return key
    }
}
