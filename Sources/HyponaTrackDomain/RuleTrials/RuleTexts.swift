import Foundation
import HyponaTrackCore
import HyponaTrackKit

/// The four rule files' bytes, by canonical file name (`RuleSet.fileNames`): a backtest's
/// candidate or the shadow rules, sent as text or read from a directory. The version hashes them.
public struct RuleTexts: Sendable, Equatable {
    public var files: [String: [UInt8]]

    public init(files: [String: [UInt8]]) { self.files = files }

    /// `riskModel`, `thresholds`, `reminders`, `instructions` as the API's body names them.
    public static let bodyKeys = [("riskModel", "risk-model.json"), ("thresholds", "thresholds.json"),
                                  ("reminders", "reminders.json"), ("instructions", "instructions.json")]

    /// The four files of a directory.
    public static func read(directory: URL) throws(RulesError) -> RuleTexts {
        var files: [String: [UInt8]] = [:]
        for name in RuleSet.fileNames {
            let url = directory.appendingPathComponent(name)
            do { files[name] = Array(try Data(contentsOf: url)) } catch {
                throw RulesError(file: url.path, key: nil, message: "cannot be read (\(error.localizedDescription))")
            }
        }
        return RuleTexts(files: files)
    }

    /// Parsed and validated; an error names the file and key.
    public func rules() throws(RulesError) -> RuleSet { try RulesLoader.load(contents: files) }
}
