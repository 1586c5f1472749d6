import Crypto

/// The hash chain of the audit trail, in one place so that `append` and `verify` cannot
/// disagree and an external tool can re-implement it from this description:
///
///     hash = hex(SHA-256(prev_hash + "\n" + canonical))
///     canonical = seq "\n" at "\n" field(actor) "\n" field(action) "\n" subject "\n" field(details)
///     field(s)  = <UTF-8 byte count of s> ":" s
///     subject   = field(subject), or "-" when NULL
///
/// `seq` and `at` are decimal integers; `details` is the stored JSON text byte for byte. The
/// length prefixes make the encoding unambiguous whatever the fields contain (newlines,
/// colons), and it does not depend on any JSON serializer, so a future serializer change
/// cannot break verification of old rows. The first row's `prev_hash` is 64 zeros.
enum AuditChain {
    /// `prev_hash` of the first row.
    static let genesisHash = String(repeating: "0", count: 64)

    /// The row's hash given its predecessor's.
    static func hash(prevHash: String, seq: Int64, at: Int64, actor: String, action: String,
                     subject: String?, details: String) -> String {
        var text = prevHash + "\n"
        text += "\(seq)\n\(at)\n"
        text += field(actor) + "\n" + field(action) + "\n"
        text += (subject.map(field) ?? "-") + "\n"
        text += field(details)
        return Crypto.hex(Crypto.sha256(Array(text.utf8)))
    }

    private static func field(_ value: String) -> String {
        "\(value.utf8.count):\(value)"
    }
}
