/// A conversion from a JSON value at a path to a Swift value, with the field's rules
/// (type, range, pattern). Values outside their rules are errors naming the field, never clamped.
public struct JSONRead<T> {
    public let convert: (JSONValue, String) throws(FieldError) -> T

    public init(_ convert: @escaping (JSONValue, String) throws(FieldError) -> T) {
        self.convert = convert
    }
}

extension JSONRead where T == Double {
    /// A finite number within `range`.
    public static func number(_ range: ClosedRange<Double>) -> JSONRead<Double> {
        JSONRead { value, path throws(FieldError) in
            guard case .number(let d) = value else {
                throw FieldError.invalid(path, "expected a number, got \(value.typeName)", problem: .notANumber)
            }
            guard range.contains(d) else {
                throw FieldError.invalid(path, "\(JSONSerializer.format(d)) is outside \(JSONSerializer.format(range.lowerBound))–\(JSONSerializer.format(range.upperBound))",
                                         problem: .outOfRange(lower: range.lowerBound, upper: range.upperBound))
            }
            return d
        }
    }
}

extension JSONRead where T == Int {
    /// An integral number within `range` (2 and 2.0 are accepted, 2.5 is not).
    public static func integer(_ range: ClosedRange<Int>) -> JSONRead<Int> {
        JSONRead { value, path throws(FieldError) in
            guard case .number(let d) = value else {
                throw FieldError.invalid(path, "expected an integer, got \(value.typeName)", problem: .notAnInteger)
            }
            guard d.rounded() == d, abs(d) < 9e15 else {
                throw FieldError.invalid(path, "expected an integer, got \(JSONSerializer.format(d))", problem: .notAnInteger)
            }
            let i = Int(d)
            guard range.contains(i) else {
                throw FieldError.invalid(path, "\(i) is outside \(range.lowerBound)–\(range.upperBound)",
                                         problem: .outOfRange(lower: Double(range.lowerBound), upper: Double(range.upperBound)))
            }
            return i
        }
    }
}

extension JSONRead where T == Bool {
    public static var bool: JSONRead<Bool> {
        JSONRead { value, path throws(FieldError) in
            guard case .bool(let b) = value else { throw FieldError.invalid(path, "expected true or false, got \(value.typeName)") }
            return b
        }
    }
}

extension JSONRead where T == String {
    /// A string of `length` characters, optionally checked by `isValid` (described by `expected`).
    public static func string(length: ClosedRange<Int> = 0...10_000, expected: String? = nil,
                              _ isValid: @escaping (String) -> Bool = { _ in true }) -> JSONRead<String> {
        JSONRead { value, path throws(FieldError) in
            guard case .string(let s) = value else { throw FieldError.invalid(path, "expected a string, got \(value.typeName)") }
            guard length.contains(s.count) else {
                throw FieldError.invalid(path, "must be \(length.lowerBound)–\(length.upperBound) characters",
                                         problem: .length(lower: length.lowerBound, upper: length.upperBound))
            }
            guard isValid(s) else { throw FieldError.invalid(path, "\"\(s.prefix(80))\" is not \(expected ?? "valid")") }
            return s
        }
    }

    /// One of a fixed set of codes.
    public static func oneOf(_ allowed: [String]) -> JSONRead<String> {
        JSONRead { value, path throws(FieldError) in
            guard case .string(let s) = value else { throw FieldError.invalid(path, "expected a string, got \(value.typeName)") }
            guard allowed.contains(s) else {
                throw FieldError.invalid(path, "\"\(s.prefix(80))\" is not one of \(allowed.joined(separator: ", "))",
                                         problem: .notOneOf(allowed: allowed))
            }
            return s
        }
    }
}

extension JSONRead where T == JSONValue {
    public static var any: JSONRead<JSONValue> { JSONRead { value, _ in value } }
}

extension JSONRead {
    /// Maps the converted value; `transform` may throw a message that becomes an error for the field.
    public func map<U>(_ transform: @escaping (T, String) throws(FieldError) -> U) -> JSONRead<U> {
        let convert = self.convert
        return JSONRead<U> { value, path throws(FieldError) in try transform(try convert(value, path), path) }
    }
}
