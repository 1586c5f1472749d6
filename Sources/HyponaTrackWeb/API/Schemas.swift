import HTJSON
import HyponaTrackDomain

/// JSON Schema fragments for `/openapi.json` (OpenAPI 3.1 uses JSON Schema 2020-12).
enum S {
    static func object(_ properties: [(String, JSONValue)], required: [String] = [], additional: Bool = false) -> JSONValue {
        ["type": "object", "properties": .object(JSONObject(properties)), "required": .array(required.map { JSONValue.string($0) }),
         "additionalProperties": .bool(additional)]
    }
    static func openObject() -> JSONValue { ["type": "object"] }
    /// A request body object: the server reads an optional member that is null as absent
    /// (`ObjectReader.optional`), so optional members also accept null.
    static func body(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        object(properties.map { required.contains($0.0) ? $0 : ($0.0, nullable($0.1)) }, required: required)
    }
    static func string(_ pattern: String? = nil, min: Int? = nil, max: Int? = nil) -> JSONValue {
        var o: JSONObject = JSONObject([("type", "string")])
        if let pattern { o["pattern"] = .string(pattern) }
        if let min { o["minLength"] = .int(min) }
        if let max { o["maxLength"] = .int(max) }
        return .object(o)
    }
    static func number(_ min: Double, _ max: Double) -> JSONValue { ["type": "number", "minimum": .number(min), "maximum": .number(max)] }
    static func integer(_ min: Int, _ max: Int) -> JSONValue { ["type": "integer", "minimum": .int(min), "maximum": .int(max)] }
    static let bool: JSONValue = ["type": "boolean"]
    static let anyNumber: JSONValue = ["type": "number"]
    static let anyInteger: JSONValue = ["type": "integer"]
    static let anyString: JSONValue = ["type": "string"]
    static func nullable(_ s: JSONValue) -> JSONValue {
        guard case .object(var o) = s, case .string(let t)? = o["type"] else { return ["anyOf": [s, ["type": "null"]]] }
        o["type"] = [.string(t), "null"]
        // An enumeration lists every allowed value: null too, or the type's "null" allows nothing.
        if case .array(let values)? = o["enum"] { o["enum"] = .array(values + [.null]) }
        return .object(o)
    }
    static func array(_ items: JSONValue, max: Int? = nil) -> JSONValue {
        var o = JSONObject([("type", "array"), ("items", items)])
        if let max { o["maxItems"] = .int(max) }
        return .object(o)
    }
    static func oneOf(_ values: [String]) -> JSONValue { ["type": "string", "enum": .array(values.map { JSONValue.string($0) })] }
    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }
    static let date = formatted(string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), "date")
    /// Seconds and their fraction are optional, as the server reads them (Timestamp).
    static let dateTime = string("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:[0-9]{2})$")
    /// Adds a `format` annotation (not asserted in JSON Schema 2020-12; it tells generators and
    /// clients that a pattern-shaped "2026-02-30" is not a date).
    static func formatted(_ s: JSONValue, _ format: String) -> JSONValue {
        guard case .object(var o) = s else { return s }
        o["format"] = .string(format)
        return .object(o)
    }
    static let studyId = string("^[A-Za-z0-9_-]{1,64}$")
    /// The shape of a risk-model code (`[A-Za-z0-9_-]`, as the rule files allow).
    static let codePattern = "^[A-Za-z0-9_-]{1,64}$"
    /// A code whose allowed values are listed in a rule file, not here: the rules can change
    /// (SIGHUP) and the server refuses a code they do not list with `invalid_value`.
    static func ruleCode(_ pattern: String, _ file: String, _ key: String) -> JSONValue {
        guard case .object(var o) = string(pattern) else { return string(pattern) }
        o["description"] = .string("one of the codes of `\(key)` in the rule file \(file)")
        return .object(o)
    }
    static let itemId = string("^[!-~]{1,64}$")
    static let error = APIError.shape.reference
}
