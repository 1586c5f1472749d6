import Foundation
import HTJSON

/// A small JSON Schema (2020-12) checker for the subset `/openapi.json` uses: `$ref` into the
/// document's components, `anyOf`, `type` (one or a list; `integer` is a whole number), `enum`,
/// `properties` / `required` / `additionalProperties: false`, `items` / `maxItems`, `minimum` /
/// `maximum`, `pattern`, `minLength` / `maxLength`. It names every disagreement by JSON path, so a
/// test reads "DayResult.extra: not declared" instead of a bare false.
struct SchemaCheck {
    /// `#/components/schemas/NAME` → schema.
    let components: JSONObject

    init(document: JSONValue) {
        guard case .object(let d) = document, case .object(let c)? = d["components"], case .object(let s)? = c["schemas"] else {
            components = JSONObject()
            return
        }
        components = s
    }

    /// Every way `value` disagrees with `schema`; empty when it conforms.
    func problems(_ value: JSONValue, _ schema: JSONValue, at path: String = "$") -> [String] {
        guard case .object(let s) = schema else { return schema == .bool(false) ? ["\(path): nothing is allowed"] : [] }
        if case .string(let ref)? = s["$ref"] {
            guard ref.hasPrefix("#/components/schemas/"), let target = components[String(ref.dropFirst(21))] else {
                return ["\(path): unresolved \(ref)"]
            }
            return problems(value, target, at: path)
        }
        if case .array(let options)? = s["anyOf"] {
            let results = options.map { problems(value, $0, at: path) }
            if !results.contains(where: \.isEmpty) { return ["\(path): matches none of anyOf: \(results.flatMap { $0 })"] }
        }
        if let types = s["type"], !Self.types(types).contains(where: { Self.value(value, is: $0) }) {
            return ["\(path): \(value.typeName), the schema says \(JSONSerializer.string(types))"]
        }
        if case .array(let allowed)? = s["enum"], !allowed.contains(value) {
            return ["\(path): \(JSONSerializer.string(value)) is not one of \(JSONSerializer.string(.array(allowed)))"]
        }
        switch value {
        case .object(let o): return objectProblems(o, s, at: path)
        case .array(let items):
            var found: [String] = []
            if case .number(let max)? = s["maxItems"], Double(items.count) > max { found.append("\(path): more than \(Int(max)) items") }
            if let item = s["items"] {
                for (i, element) in items.enumerated() { found += problems(element, item, at: "\(path)[\(i)]") }
            }
            return found
        case .number(let n):
            var found: [String] = []
            if case .number(let min)? = s["minimum"], n < min { found.append("\(path): \(n) is below \(min)") }
            if case .number(let max)? = s["maximum"], n > max { found.append("\(path): \(n) is above \(max)") }
            return found
        case .string(let text):
            var found: [String] = []
            if case .number(let min)? = s["minLength"], Double(text.count) < min { found.append("\(path): shorter than \(Int(min))") }
            if case .number(let max)? = s["maxLength"], Double(text.count) > max { found.append("\(path): longer than \(Int(max))") }
            if case .string(let pattern)? = s["pattern"],
               text.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(path): \"\(text)\" does not match \(pattern)")
            }
            return found
        case .null, .bool: return []
        }
    }

    private func objectProblems(_ o: JSONObject, _ s: JSONObject, at path: String) -> [String] {
        var found: [String] = []
        let properties: JSONObject
        if case .object(let p)? = s["properties"] { properties = p } else { properties = JSONObject() }
        if case .array(let required)? = s["required"] {
            for case .string(let name) in required where o[name] == nil { found.append("\(path).\(name): required but absent") }
        }
        for (name, member) in o.members {
            if let schema = properties[name] {
                found += problems(member, schema, at: "\(path).\(name)")
            } else if s["additionalProperties"] == .bool(false) {
                found.append("\(path).\(name): not declared")
            }
        }
        return found
    }

    private static func types(_ t: JSONValue) -> [String] {
        switch t {
        case .string(let one): return [one]
        case .array(let many): return many.compactMap { if case .string(let s) = $0 { s } else { nil } }
        default: return []
        }
    }

    private static func value(_ v: JSONValue, is type: String) -> Bool {
        switch (type, v) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object):
            return true
        case ("integer", .number(let n)): return n.rounded() == n
        default: return false
        }
    }
}
