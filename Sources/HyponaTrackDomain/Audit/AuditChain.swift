import Crypto

/// The hash chain of the audit trail, in one place so that `append`, `verify` and the re-keying
/// cannot disagree and an external tool can re-implement it from this description:
///
///     hash      = hex(HMAC-SHA256(key, prev_hash + "\n" + canonical))
///     canonical = seq "\n" at "\n" field(actor) "\n" field(action) "\n" subject "\n" field(details)
///     field(s)  = <UTF-8 byte count of s> ":" s
///     subject   = field(subject), or "-" when NULL
///
/// `key` is the bytes of the audit key (the key file holds them as hexadecimal text: decode
/// it, at least 32 bytes); `hex` is lower case; `seq` and `at` are decimal integers; `details`
/// is the stored JSON text byte for byte; all text is UTF-8. The length prefixes make the
/// encoding unambiguous whatever the fields contain (newlines, colons), and it does not depend
/// on any JSON serializer, so a future serializer change cannot break verification of old rows.
/// The first row's `prev_hash` is 64 zeros. In Python:
///
///     msg = f"{prev}\n{seq}\n{at}\n{f(actor)}\n{f(action)}\n{f(subject) if subject is not None else '-'}\n{f(details)}"
///     hmac.new(bytes.fromhex(key_file_text.strip()), msg.encode(), hashlib.sha256).hexdigest()
///
/// Before release 5 (migration `v5_audit_hmac`) the hash was the unkeyed
/// `hex(SHA-256(prev_hash + "\n" + canonical))` over the same text: whoever could edit the file
/// could recompute it. That migration verifies such a chain once and re-hashes every row with
/// the key (`AuditRekey`).
enum AuditChain {
    /// `prev_hash` of the first row.
    static let genesisHash = String(repeating: "0", count: 64)

    /// How a row's hash is computed from its message.
    enum Scheme {
        /// HMAC-SHA256 under the audit key: every chain from release 5 on.
        case keyed(AuditKey)
        /// Plain SHA-256: only read, to verify an old chain before re-keying it.
        case legacySHA256

        func digest(_ message: [UInt8]) -> [UInt8] {
            switch self {
            case .keyed(let key): return key.mac(message)
            case .legacySHA256: return Crypto.sha256(message)
            }
        }
    }

    /// The row's hash given its predecessor's.
    static func hash(_ scheme: Scheme, prevHash: String, seq: Int64, at: Int64, actor: String, action: String,
                     subject: String?, details: String) -> String {
        // The message is assembled as bytes: this runs for every audit row on the write path.
        var text: [UInt8] = []
        text.reserveCapacity(prevHash.utf8.count + details.utf8.count + actor.utf8.count + 96)
        text.append(contentsOf: prevHash.utf8)
        text.append(newline)
        text.append(contentsOf: String(seq).utf8)
        text.append(newline)
        text.append(contentsOf: String(at).utf8)
        text.append(newline)
        field(actor, into: &text)
        text.append(newline)
        field(action, into: &text)
        text.append(newline)
        if let subject { field(subject, into: &text) } else { text.append(UInt8(ascii: "-")) }
        text.append(newline)
        field(details, into: &text)
        return Crypto.hex(scheme.digest(text))
    }

    /// `entry`'s hash recomputed from its stored content and `prev_hash`.
    static func hash(_ scheme: Scheme, of entry: AuditEntry, prevHash: String) -> String {
        hash(scheme, prevHash: prevHash, seq: entry.seq, at: entry.at, actor: entry.actor, action: entry.action,
             subject: entry.subject, details: entry.detailsText)
    }

    private static let newline = UInt8(ascii: "\n")

    /// `<UTF-8 byte count>:<value>`.
    private static func field(_ value: String, into text: inout [UInt8]) {
        text.append(contentsOf: String(value.utf8.count).utf8)
        text.append(UInt8(ascii: ":"))
        text.append(contentsOf: value.utf8)
    }
}
