/// A small command-line parser: `--flag`, `--option value`, `--option=value`, repeatable
/// options, positionals. Unknown options are usage errors naming the option.
public struct Arguments: Sendable {
    public struct Spec: Sendable {
        public var flags: Set<String>
        public var options: Set<String>
        public var repeatable: Set<String>

        public init(flags: Set<String> = [], options: Set<String> = [], repeatable: Set<String> = []) {
            self.flags = flags.union(["help"])
            self.options = options.union(repeatable)
            self.repeatable = repeatable
        }
    }

    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flagsSet: Set<String> = []

    public init(_ args: [String], spec: Spec) throws(UsageError) {
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("--") || arg == "-" {
                positionals.append(arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if spec.flags.contains(name) {
                guard inline == nil else { throw UsageError("--\(name) takes no value") }
                flagsSet.insert(name)
            } else if spec.options.contains(name) {
                let value: String
                if let inline { value = inline } else {
                    guard i < args.count else { throw UsageError("--\(name) needs a value") }
                    value = args[i]
                    i += 1
                }
                if values[name] != nil && !spec.repeatable.contains(name) {
                    throw UsageError("--\(name) given twice")
                }
                values[name, default: []].append(value)
            } else {
                throw UsageError("unknown option --\(name)")
            }
        }
    }

    public func flag(_ name: String) -> Bool { flagsSet.contains(name) }
    public func value(_ name: String) -> String? { values[name]?.last }
    public func all(_ name: String) -> [String] { values[name] ?? [] }
}

/// A mistake in how a command was called (exit 64).
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The CLI's exit codes (docs/product.md).
public enum ExitCode {
    public static let success: Int32 = 0
    /// Refused by the server, a failed verification, or differences found.
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    public static let unavailable: Int32 = 69
    public static let permission: Int32 = 77
}
