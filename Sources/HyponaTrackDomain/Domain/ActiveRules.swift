import Foundation
import Synchronization
import HyponaTrackCore
import HyponaTrackKit

/// The rule set in force and the engines built from it. SIGHUP swaps it atomically; a request
/// takes one snapshot and uses it throughout, so an evaluation never mixes two rule versions.
public final class ActiveRules: Sendable {
    /// A class, not a struct: it is taken and handed on several times per request (the day
    /// submission keeps it from decoding to its answer), and copying the rule set and its engines
    /// by value retained every array and string in them each time (≈ 1 % of a submission's CPU);
    /// a reference is one retain. Immutable, so sharing it is safe.
    public final class Snapshot: Sendable {
        public let rules: RuleSet
        public let engine: EscalationEngine
        public let planner: AdaptiveReminderPlanner
        public let missingData: MissingDataDetector

        init(_ rules: RuleSet) {
            self.rules = rules
            engine = EscalationEngine(rules: rules)
            planner = AdaptiveReminderPlanner(rules: rules)
            missingData = MissingDataDetector(rules: rules)
        }
    }

    private let current: Mutex<Snapshot>
    private let files: [String: URL]

    public init(files: [String: URL]) throws(RulesError) {
        self.files = files
        current = Mutex(Snapshot(try RulesLoader.load(files: files)))
    }

    public init(rules: RuleSet) {
        files = [:]
        current = Mutex(Snapshot(rules))
    }

    public var snapshot: Snapshot { current.withLock { $0 } }

    /// Re-reads the files; on any error the old rules stay in force and the error is returned.
    /// `accept` may refuse valid files for what they would meet (the stored profiles' codes).
    @discardableResult
    public func reload(accept: (RuleSet) throws(RulesError) -> Void = { _ in }) -> Result<String, RulesError> {
        do {
            let rules = try RulesLoader.load(files: files)
            try accept(rules)
            current.withLock { $0 = Snapshot(rules) }
            return .success(rules.version)
        } catch {
            return .failure(error)
        }
    }
}
