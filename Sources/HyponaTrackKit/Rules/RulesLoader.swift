import Foundation
import Crypto
import HyponaTrackCore

/// Reads the four rule files from a directory, validates them and computes the rules version:
/// the first 16 hex digits of SHA-256 over each file's name and bytes, in `RuleSet.fileNames` order.
/// Any byte change in any file (texts included) gives a new version.
public enum RulesLoader {
    public static func load(directory: URL) throws(RulesError) -> RuleSet {
        try load(files: [
            "risk-model.json": directory.appendingPathComponent("risk-model.json"),
            "thresholds.json": directory.appendingPathComponent("thresholds.json"),
            "reminders.json": directory.appendingPathComponent("reminders.json"),
            "instructions.json": directory.appendingPathComponent("instructions.json"),
        ])
    }

    /// Loads from explicit paths keyed by the canonical file names.
    public static func load(files: [String: URL]) throws(RulesError) -> RuleSet {
        var contents: [String: [UInt8]] = [:]
        for name in RuleSet.fileNames {
            guard let url = files[name] else { throw RulesError(file: name, key: nil, message: "no path configured") }
            do {
                contents[name] = Array(try Data(contentsOf: url))
            } catch {
                throw RulesError(file: url.path, key: nil, message: "cannot be read (\(error.localizedDescription))")
            }
        }
        return try load(contents: contents)
    }

    /// Parses the four files' bytes keyed by their canonical names (a backtest's or a shadow's
    /// rules sent as text); the version as for files on disk.
    public static func load(contents: [String: [UInt8]]) throws(RulesError) -> RuleSet {
        var hashed: [UInt8] = []
        for name in RuleSet.fileNames {
            guard let bytes = contents[name] else { throw RulesError(file: name, key: nil, message: "missing") }
            hashed += Array(name.utf8) + [0] + bytes + [0]
        }
        let version = String(Crypto.hex(Crypto.sha256(hashed)).prefix(16))
        return try RuleSet.parse(riskModel: contents["risk-model.json"]!, thresholds: contents["thresholds.json"]!,
                                 reminders: contents["reminders.json"]!, instructions: contents["instructions.json"]!,
                                 version: version)
    }

    /// The `config/` directory of the installation: `$HYPONATRACK_CONFIG_DIR`, else `config/` next
    /// to the executable's package (…/.build/<config>/hyponatrack → …/config), else `./config`.
    public static func defaultDirectory(executablePath: String = CommandLine.arguments[0]) -> URL {
        if let env = ProcessInfo.processInfo.environment["HYPONATRACK_CONFIG_DIR"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        var dir = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("config/risk-model.json")
            if FileManager.default.fileExists(atPath: candidate.path) { return dir.appendingPathComponent("config") }
            dir.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("config")
    }
}
