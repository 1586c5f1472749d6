import Foundation
import HTJSON
import HyponaTrackCore
import HyponaTrackKit

/// `hyponatrack evaluate FILE [--check] [--rules DIR]` — offline, no server.
struct EvaluateCommand: CLICommand {
    static let usage = ["evaluate FILE [--check] [--rules DIR]"]
    let name = "evaluate"
    var help: String { Help.text(Self.usage, Self.about, footer: nil) }

    static let about = """
        Evaluates one case or a JSON array of cases (docs/product.md, case format) with the clinical
        rules and prints a JSON array of results (level, risk, POD, factor, every reason with its
        value and scaled threshold, rules version). FILE may be - for standard input.

          --check       compare level, riskClass, riskScore and the exact set of reason codes with
                        each case's "expect"; print every difference; exit 1 on any
          --rules DIR   read risk-model.json, thresholds.json, reminders.json and
                        instructions.json from DIR instead of the installation's config/

        The rules are defaults derived from published evidence, not a validated clinical rule;
        HyponaTrack is not a validated medical device. Offline: the global options
        (--server, --token, --token-file) are accepted and unused.
        """

    func run(_ args: [String], io: CLIOutput) -> Int32 {
        let parsed: Arguments
        do throws(UsageError) {
            parsed = try Arguments(args, spec: .init(flags: ["check", "json"], options: ["rules"]))
            if parsed.flag("help") { io.out(help); return ExitCode.success }
            if parsed.flag("json") { throw UsageError("--json is not an option of evaluate: it always prints JSON") }
            guard parsed.positionals.count == 1 else { throw UsageError("expected exactly one FILE") }
        } catch {
            return usageError(error, usage: Self.usage, io: io)
        }
        let file = parsed.positionals[0]
        let rulesDir = parsed.value("rules").map { URL(fileURLWithPath: $0) } ?? RulesLoader.defaultDirectory()
        let rules: RuleSet
        do { rules = try RulesLoader.load(directory: rulesDir) } catch {
            io.error("evaluate: invalid rules in \(rulesDir.path): \(error)")
            return ExitCode.failure
        }
        let bytes: [UInt8]
        do {
            bytes = file == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile())
                                : Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            io.error("evaluate: cannot read \(file): \(error.localizedDescription)")
            return ExitCode.failure
        }
        let cases: [EvaluationCase]
        do {
            cases = try EvaluationCase.decodeAll(try JSONParser.parse(bytes), rules: rules)
        } catch let error as JSONSyntaxError {
            io.error("evaluate: \(file): \(error)")
            return ExitCode.failure
        } catch let error as FieldError {
            io.error("evaluate: \(file): \(error.field ?? "(document)"): \(error.message)")
            return ExitCode.failure
        } catch {
            io.error("evaluate: \(file): \(error)")
            return ExitCode.failure
        }
        let outcome = OfflineEvaluator(rules: rules).evaluate(cases)
        io.json(OfflineEvaluator.resultsJSON(outcome))
        guard parsed.flag("check") else { return ExitCode.success }
        // One line each; a case id from the file must not break it.
        for difference in outcome.differences { io.error(TerminalText.escaped(difference)) }
        if outcome.differences.isEmpty {
            io.error("check: \(cases.count) case(s) match their expectations")
            return ExitCode.success
        }
        io.error("check: \(outcome.differences.count) difference(s)")
        return ExitCode.failure
    }
}
