import Foundation

/// An event body as queued (`{type, id, timestamp, data}`), read back for the transports that
/// look inside it (the e-mail's words, the command's environment). Read leniently: a member
/// that is missing or of another kind is absent, so an event from an older build still gets
/// its message.
struct StoredHookEvent: Decodable, Sendable {
    let type: String
    let id: String?
    let timestamp: String?
    let data: Members

    private enum CodingKeys: String, CodingKey { case type, id, timestamp, data }

    /// The body read back; an unreadable body reads as an event without type or data.
    init(body: [UInt8]) {
        self = (try? JSONDecoder().decode(StoredHookEvent.self, from: Data(body)))
            ?? StoredHookEvent(type: "", id: nil, timestamp: nil, data: Members())
    }

    private init(type: String, id: String?, timestamp: String?, data: Members) {
        self.type = type
        self.id = id
        self.timestamp = timestamp
        self.data = data
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = (try? c.decodeIfPresent(String.self, forKey: .type)) ?? ""
        id = try? c.decodeIfPresent(String.self, forKey: .id)
        timestamp = try? c.decodeIfPresent(String.self, forKey: .timestamp)
        data = (try? c.decodeIfPresent(Members.self, forKey: .data)) ?? Members()
    }

    /// The members of `data` by name (names sorted: a decoder does not keep their order).
    struct Members: Decodable, Sendable {
        private(set) var values: [String: Value] = [:]

        init() {}

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: NamedKey.self)
            for key in c.allKeys { values[key.stringValue] = Value(c, key) }
        }

        var names: [String] { values.keys.sorted() }
        subscript(name: String) -> Value? { values[name] }
    }

    /// One member of `data`: a scalar, a list (of strings or of reason objects), or something else.
    enum Value: Sendable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case list([Item])
        case other

        init(_ c: KeyedDecodingContainer<NamedKey>, _ key: NamedKey) {
            if let s = try? c.decode(String.self, forKey: key) { self = .string(s) }
            else if let b = try? c.decode(Bool.self, forKey: key) { self = .bool(b) }
            else if let n = try? c.decode(Double.self, forKey: key) { self = .number(n) }
            else if let items = try? c.decode([Item].self, forKey: key) { self = .list(items) }
            else { self = .other }
        }
    }

    /// An element of a list: a string (a task, a bare reason code) or an object with a `code`
    /// (a reason: `{code, level, value, threshold}`).
    enum Item: Decodable, Sendable {
        case string(String)
        case reason(code: String, level: String?, value: Double?, threshold: Double?)
        case other

        private enum ReasonKeys: String, CodingKey { case code, level, value, threshold }

        init(from decoder: any Decoder) throws {
            if let s = try? decoder.singleValueContainer().decode(String.self) {
                self = .string(s)
            } else if let o = try? decoder.container(keyedBy: ReasonKeys.self), let code = try? o.decode(String.self, forKey: .code) {
                self = .reason(code: code, level: try? o.decodeIfPresent(String.self, forKey: .level),
                               value: try? o.decodeIfPresent(Double.self, forKey: .value),
                               threshold: try? o.decodeIfPresent(Double.self, forKey: .threshold))
            } else {
                self = .other
            }
        }
    }
}
