import Foundation
import HTJSON

/// REDCap's JSON answers (import counts, errors, project info, metadata, exported rows), read
/// leniently into typed values: a member of a kind not expected reads as `.other`.
enum REDCapScalar: Decodable, Sendable, Equatable {
    case string(String)
    case number(Double)
    case other

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let s = try? c.decode(String.self) { self = .string(s) }
        else if (try? c.decode(Bool.self)) != nil { self = .other }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else { self = .other }
    }

    /// As a flat export cell: a string as it is, a number as the serializer writes it, else "".
    var cell: String {
        switch self {
        case .string(let s): return s
        case .number(let n): return JSONSerializer.format(n)
        case .other: return ""
        }
    }
}

/// One JSON object of REDCap's, its members by name (a decoder does not keep their order).
struct REDCapObject: Decodable, Sendable {
    private(set) var members: [String: REDCapScalar]

    init(members: [String: REDCapScalar]) { self.members = members }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: NamedKey.self)
        var members: [String: REDCapScalar] = [:]
        for key in c.allKeys { members[key.stringValue] = (try? c.decode(REDCapScalar.self, forKey: key)) ?? .other }
        self.members = members
    }

    subscript(name: String) -> REDCapScalar? { members[name] }

    /// The object in `bytes`; nil if they are not a JSON object.
    static func parse(_ bytes: [UInt8]) -> REDCapObject? {
        try? JSONDecoder().decode(REDCapObject.self, from: Data(bytes))
    }

    /// The objects of the array in `bytes` (elements that are not objects are skipped); nil if
    /// the bytes are not a JSON array.
    static func array(_ bytes: [UInt8]) -> [REDCapObject]? {
        struct Element: Decodable {
            let object: REDCapObject?
            init(from decoder: any Decoder) throws { object = try? REDCapObject(from: decoder) }
        }
        return (try? JSONDecoder().decode([Element].self, from: Data(bytes)))?.compactMap(\.object)
    }
}
