import Foundation
import HTJSON

/// Shared scaffolding of the commands that talk to the daemon: parse, `--help`, connect, run,
/// map failures to exit codes.
struct StaffCommand: Sendable {
    let name: String
    let help: String
    let spec: Arguments.Spec
    let body: @Sendable (Arguments, DaemonClient, CLIOutput) throws -> Int32

    func run(_ args: [String], io: CLIOutput) -> Int32 {
        var spec = spec
        spec.options.formUnion(["server", "token"])
        spec.flags.insert("json")
        let parsed: Arguments
        do { parsed = try Arguments(args, spec: spec) } catch {
            io.error("\(name): \(error.message)\n\n\(help)")
            return ExitCode.usage
        }
        if parsed.flag("help") { io.out(help); return ExitCode.success }
        let client = DaemonClient(server: parsed.value("server"), token: parsed.value("token"))
        do {
            return try body(parsed, client, io)
        } catch let failure as DaemonClient.Failure {
            io.error("\(name): \(failure.message)")
            return failure.exitCode
        } catch let usage as UsageError {
            io.error("\(name): \(usage.message)\n\n\(help)")
            return ExitCode.usage
        } catch {
            io.error("\(name): \(error)")
            return ExitCode.failure
        }
    }
}

/// Reading typed option values; a malformed one is a usage error naming the option.
extension Arguments {
    func number(_ name: String) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let v = Double(text), v.isFinite else { throw UsageError("--\(name) expects a number, got \"\(text)\"") }
        return v
    }

    func integer(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let v = Int(text) else { throw UsageError("--\(name) expects a whole number, got \"\(text)\"") }
        return v
    }

    func yesNo(_ name: String) throws -> Bool? {
        guard let text = value(name) else { return nil }
        switch text.lowercased() {
        case "yes", "true": return true
        case "no", "false": return false
        default: throw UsageError("--\(name) expects yes or no, got \"\(text)\"")
        }
    }

    func single(_ what: String) throws -> String {
        guard positionals.count == 1 else { throw UsageError("expected exactly one \(what)") }
        return positionals[0]
    }
}

/// Small formatting helpers for human-readable output.
enum Show {
    static func string(_ v: JSONValue?) -> String {
        switch v {
        case .string(let s)?: return s
        case .number(let d)?: return JSONSerializer.format(d)
        case .bool(let b)?: return b ? "yes" : "no"
        case .null?, nil: return "-"
        case .array(let items)?: return items.map { string($0) }.joined(separator: ",")
        case .object?: return JSONSerializer.string(v!)
        }
    }

    static func field(_ v: JSONValue, _ key: String) -> JSONValue? {
        if case .object(let o) = v { return o[key] }
        return nil
    }

    /// Left-aligned columns.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in i == cells.count - 1 ? c : c.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}
