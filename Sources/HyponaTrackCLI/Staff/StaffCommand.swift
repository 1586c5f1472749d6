import Foundation
import HTJSON

/// What a staff command made of the daemon's answer: the answer itself (printed as it is with
/// `--json`), how to show it to a person, and the exit status, the same either way.
struct Reply {
    let json: JSONValue
    var status: Int32 = ExitCode.success
    let show: (CLIOutput) -> Void
}

/// A command that talks to the daemon: parse (global options anywhere, `-h`/`--help` before
/// anything else is checked), resolve server and token, run, print the reply or `--json` the
/// daemon's answer, map failures to exit codes. Every daemon route answers JSON, so every staff
/// command takes `--json`.
struct StaffCommand: GroupMember {
    /// The command line after `hyponatrack`: `enroll`, `sync retry`.
    let name: String
    /// Synopsis lines after `hyponatrack `.
    let usage: [String]
    let about: String
    /// The positionals it requires, in order (e.g. ["ID"]); anything more is a usage error
    /// unless `repeatsLast` (`confirm PROPOSAL…`).
    var operands: [String] = []
    var repeatsLast = false
    let spec: Arguments.Spec
    let body: @Sendable (Arguments, DaemonClient) throws -> Reply

    init(name: String, usage: [String], about: String, operands: [String] = [], repeatsLast: Bool = false, spec: Arguments.Spec,
         body: @escaping @Sendable (Arguments, DaemonClient) throws -> Reply) {
        self.name = name
        self.usage = usage
        self.about = about
        self.operands = operands
        self.repeatsLast = repeatsLast
        self.spec = spec
        self.body = body
    }

    var help: String { Help.text(usage, about) }

    func run(_ args: [String], io: CLIOutput) -> Int32 {
        var spec = spec
        spec.flags.insert("json")
        let parsed: Arguments
        do { parsed = try Arguments(args, spec: spec) } catch { return usageError(error, usage: usage, io: io) }
        if parsed.flag("help") { io.out(help); return ExitCode.success }
        do {
            if parsed.positionals.count > operands.count, !repeatsLast {
                throw UsageError("unexpected argument \(parsed.positionals[operands.count])")
            }
            if parsed.positionals.count < operands.count {
                throw UsageError("expected \(operands.joined(separator: " "))")
            }
            let client = DaemonClient(server: parsed.value("server"), token: try GlobalOptions.token(parsed))
            let reply = try body(parsed, client)
            if parsed.flag("json") { io.json(reply.json) } else { reply.show(io) }
            return reply.status
        } catch {
            return failed(error, io: io)
        }
    }
}

extension GroupMember {
    /// A command that failed after parsing: the daemon's refusal with its exit code, a usage
    /// error found late, or anything else as a failure (exit 1), each printed after the name.
    func failed(_ error: any Error, io: CLIOutput) -> Int32 {
        switch error {
        case let failure as DaemonClient.Failure:
            io.error("\(name): \(failure.message)")
            return failure.exitCode
        case let usage as UsageError:
            return usageError(usage, usage: self.usage, io: io)
        default:
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

    /// A required option's value.
    func required(_ name: String) throws -> String {
        guard let v = value(name) else { throw UsageError("--\(name) is required") }
        return v
    }
}

/// Small formatting helpers for human-readable output. Everything here holds the daemon's
/// words, which carry what uploaded files and other clients sent: each value comes out
/// terminal-safe and on one line (`TerminalText`), so it cannot forge a line or a table row.
enum Show {
    static func string(_ v: JSONValue?) -> String {
        switch v {
        case .string(let s)?: return TerminalText.escaped(s)
        case .number(let d)?: return JSONSerializer.format(d)
        case .bool(let b)?: return b ? "yes" : "no"
        case .null?, nil: return "-"
        case .array(let items)?: return items.map { string($0) }.joined(separator: ",")
        // JSON escapes the C0 controls but not DEL, C1 or the bidi overrides.
        case .object?: return TerminalText.escaped(JSONSerializer.string(v!))
        }
    }

    /// `string(field(v, key))`: one member of an answer as shown in a line or a table cell.
    static func text(_ v: JSONValue?, _ key: String) -> String { string(v.flatMap { field($0, key) }) }

    static func field(_ v: JSONValue, _ key: String) -> JSONValue? {
        if case .object(let o) = v { return o[key] }
        return nil
    }

    /// Left-aligned columns, one line per row: a cell cannot hold a line break or a control
    /// character, whoever built it (escaped cells also measure their real width).
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let rows = rows.map { $0.map { TerminalText.escaped($0) } }
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in i == cells.count - 1 ? c : c.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}
