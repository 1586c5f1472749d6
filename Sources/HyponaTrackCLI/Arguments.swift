/// A small command-line parser: `--flag`, `--option value`, `--option=value`, repeatable
/// options, positionals, `-h` for `--help`, `-o` for `--output`, `--` before positionals that
/// start with a dash.
/// Every spec accepts the global options (`GlobalOptions.names`) and `--help`. Unknown options
/// are usage errors naming the option — unless `--help`/`-h` was given too: help always wins,
/// so a half-typed command line can still ask for its usage.
public struct Arguments: Sendable {
    public struct Spec: Sendable {
        public var flags: Set<String>
        public var options: Set<String>
        public var repeatable: Set<String>

        public init(flags: Set<String> = [], options: Set<String> = [], repeatable: Set<String> = []) {
            self.flags = flags.union(["help"])
            self.options = options.union(repeatable).union(GlobalOptions.names)
            self.repeatable = repeatable
        }

        /// A spec accepting everything either accepts (to find a subcommand among options).
        func union(_ other: Spec) -> Spec {
            var s = self
            s.flags.formUnion(other.flags)
            s.options.formUnion(other.options)
            s.repeatable.formUnion(other.repeatable)
            return s
        }
    }

    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flagsSet: Set<String> = []

    public init(_ args: [String], spec: Spec) throws(UsageError) {
        var firstError: UsageError?
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            guard !onlyPositionals, let (name, inline) = Self.option(arg) else {
                if arg == "--" && !onlyPositionals { onlyPositionals = true } else { positionals.append(arg) }
                continue
            }
            if spec.flags.contains(name) {
                if inline != nil { firstError = firstError ?? UsageError("--\(name) takes no value") }
                flagsSet.insert(name)
            } else if spec.options.contains(name) {
                let value: String
                if let inline { value = inline } else if i < args.count {
                    value = args[i]
                    i += 1
                } else {
                    firstError = firstError ?? UsageError("--\(name) needs a value")
                    continue
                }
                if values[name] != nil && !spec.repeatable.contains(name) {
                    firstError = firstError ?? UsageError("--\(name) given twice")
                }
                values[name, default: []].append(value)
            } else {
                firstError = firstError ?? UsageError("unknown option \(arg.hasPrefix("--") ? "--\(name)" : arg)")
            }
        }
        if let firstError, !flagsSet.contains("help") { throw firstError }
    }

    /// `--name[=value]` → (name, value); `-h` → ("help", nil); a positional (`-` and anything
    /// not starting with a dash) or `--` → nil. Other single-dash words come back under their
    /// own spelling and are refused as unknown options.
    static func option(_ arg: String) -> (name: String, inline: String?)? {
        guard arg.hasPrefix("-"), arg != "-", arg != "--" else { return nil }
        if arg == "-h" { return ("help", nil) }
        if arg == "-o" { return ("output", nil) }   // `export … -o FILE`, wherever a spec has --output
        guard arg.hasPrefix("--") else { return (arg, nil) }
        let body = arg.dropFirst(2)
        guard let eq = body.firstIndex(of: "=") else { return (String(body), nil) }
        return (String(body[..<eq]), String(body[body.index(after: eq)...]))
    }

    /// The index of the first positional under `spec` (option values skipped), if any.
    static func firstPositional(_ args: [String], spec: Spec) -> Int? {
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg == "--" { return i + 1 < args.count ? i + 1 : nil }
            guard let (name, inline) = option(arg) else { return i }
            i += inline == nil && spec.options.contains(name) ? 2 : 1
        }
        return nil
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
