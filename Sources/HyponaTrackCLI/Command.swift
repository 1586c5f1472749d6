/// One top-level command of `hyponatrack` (a staff command, a group of subcommands, or an
/// offline one).
protocol CLICommand: Sendable {
    var name: String { get }
    /// `-h`/`--help` output: the usage lines, what the command does, the global options.
    var help: String { get }
    /// Every command line this command answers to: its name, and `name sub` for each subcommand.
    var commandLines: [String] { get }
    func run(_ args: [String], io: CLIOutput) -> Int32
}

extension CLICommand {
    var commandLines: [String] { [name] }

    /// A usage error: the message, then the usage lines (the whole help is one `-h` away).
    func usageError(_ error: UsageError, usage: [String], io: CLIOutput) -> Int32 {
        io.error("\(name): \(error.message)\n\n\(Help.usage(usage))\nMore: hyponatrack \(name) --help")
        return ExitCode.usage
    }
}

/// Help text layout shared by every command.
enum Help {
    /// `Usage: hyponatrack LINE` for the first line, aligned continuation for the others.
    static func usage(_ lines: [String]) -> String {
        lines.enumerated().map { i, line in (i == 0 ? "Usage: " : "       ") + "hyponatrack " + line }.joined(separator: "\n")
    }

    static func text(_ usage: [String], _ about: String, footer: String? = GlobalOptions.footer) -> String {
        Help.usage(usage) + "\n\n" + about + (footer.map { "\n\n" + $0 } ?? "")
    }
}

/// A subcommand of a `CommandGroup`: its synopsis lines and the options it reads.
protocol GroupMember: CLICommand {
    var usage: [String] { get }
    var spec: Arguments.Spec { get }
}

/// A command whose first positional names a subcommand (`sync retry`, `staff add NAME`, …).
/// Options may stand before the subcommand too; `-h` without a subcommand prints the group's help.
struct CommandGroup: CLICommand {
    let name: String
    let about: String
    let subcommands: [any GroupMember]
    /// What the command does without a subcommand (`backup` makes one); nil: a subcommand is required.
    var bare: (any GroupMember)? = nil

    private var usage: [String] { (bare?.usage ?? []) + subcommands.flatMap(\.usage) }
    var help: String { Help.text(usage, about) }
    var commandLines: [String] { [name] + subcommands.map(\.name) }
    private var expected: String { subcommands.map { String($0.name.dropFirst(name.count + 1)) }.joined(separator: ", ") }

    func run(_ args: [String], io: CLIOutput) -> Int32 {
        var spec = (subcommands + (bare.map { [$0] } ?? [])).reduce(Arguments.Spec()) { $0.union($1.spec) }
        spec.flags.insert("json")
        guard let index = Arguments.firstPositional(args, spec: spec) else {
            do throws(UsageError) {
                if try Arguments(args, spec: spec).flag("help") { io.out(help); return ExitCode.success }
                if let bare { return bare.run(args, io: io) }
                throw UsageError("expected a subcommand: \(expected)")
            } catch {
                return usageError(error, usage: usage, io: io)
            }
        }
        guard let command = subcommands.first(where: { $0.name == "\(name) \(args[index])" }) else {
            return usageError(UsageError("unknown subcommand \"\(args[index])\"; expected one of \(expected)"),
                              usage: usage, io: io)
        }
        var rest = args
        rest.remove(at: index)
        return command.run(rest, io: io)
    }
}
