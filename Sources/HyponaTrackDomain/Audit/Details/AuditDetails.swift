import HTJSON

/// What an audit row's `details` hold, one type per kind of row, grouped by area in the
/// `AuditDetails+*.swift` files. `AuditLog.append` writes them as JSON text with
/// `JSONTextEncoder`: members in declaration order (keep it: people read the trail and it is
/// the text that is hashed), a nil optional as null unless it is `@OmittedWhenNil`.
/// Never secrets: no tokens, no activation codes.
public enum AuditDetails {
    /// `{}`: the action says it all.
    public struct None: Encodable, Sendable {
        public init() {}
    }

    /// `{"ip"}`: a sign-in or sign-out from an address.
    struct FromAddress: Encodable, Sendable {
        let ip: String
    }
}
