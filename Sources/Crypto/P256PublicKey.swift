import COpenSSL

/// A P-256 public key given as an uncompressed point (`0x04 || X || Y`, SEC1 §2.3.3), checked
/// to lie on the curve: a point that does not would let a peer probe our ephemeral scalar
/// (the invalid-curve attack), so RFC 8291's `ua_public` is refused unless it is valid.
struct P256PublicKey: Sendable, Equatable {
    let point: [UInt8]

    /// Nil unless `point` is 65 bytes, starts with 0x04, and passes OpenSSL's public-key check
    /// (on the curve, not the point at infinity, in the right subgroup: EVP_PKEY_public_check(3)).
    init?(uncompressed point: [UInt8]) {
        guard point.count == 65, point[0] == 0x04 else { return nil }
        self.point = point
        guard let key = try? makeKey() else { return nil }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_PKEY_CTX_new(key, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_public_check(context) == 1 else {
            ERR_clear_error()
            return nil
        }
    }

    /// `EVP_PKEY_PUBLIC_KEY` of evp.h, a macro of macros Swift does not import: the public key
    /// with its domain parameters (the curve).
    private var publicKeySelection: Int32 {
        OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS
    }

    /// An `EVP_PKEY` holding only this public key (EVP_PKEY_fromdata(3) with the
    /// "group" and "pub" parameters of EVP_PKEY-EC(7)); the caller frees it. Decoding the point
    /// already fails for one that is not on the curve.
    func makeKey() throws(CryptoError) -> OpaquePointer {
        let context = try libcrypto("EVP_PKEY_CTX_new_from_name", EVP_PKEY_CTX_new_from_name(nil, "EC", nil))
        defer { EVP_PKEY_CTX_free(context) }
        try libcrypto("EVP_PKEY_fromdata_init", EVP_PKEY_fromdata_init(context))
        var key: OpaquePointer?
        var point = self.point
        let ok = "group".withCString { groupName in
            "prime256v1".withCString { curve in
                "pub".withCString { pubName in
                    point.withUnsafeMutableBytes { bytes in
                        var parameters = [
                            OSSL_PARAM_construct_utf8_string(groupName, UnsafeMutablePointer(mutating: curve), 0),
                            OSSL_PARAM_construct_octet_string(pubName, bytes.baseAddress, bytes.count),
                            OSSL_PARAM_construct_end(),
                        ]
                        return EVP_PKEY_fromdata(context, &key, publicKeySelection, &parameters)
                    }
                }
            }
        }
        try libcrypto("EVP_PKEY_fromdata", ok)
        return try libcrypto("EVP_PKEY_fromdata", key)
    }
}
