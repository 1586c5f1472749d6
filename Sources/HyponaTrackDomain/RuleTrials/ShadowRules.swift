import Foundation
import Synchronization
import HyponaTrackCore
import HyponaTrackKit

/// The shadow rules in force, if any (docs/product.md, third round, O): every evaluation is also
/// computed under them and stored apart (`shadow_evaluations`) with no alert, hook,
/// patient-visible or REDCap effect. Swapped atomically like `ActiveRules`; a request takes one
/// snapshot.
public final class ShadowRules: Sendable {
    public struct Current: Sendable {
        public let snapshot: ActiveRules.Snapshot
        public let texts: RuleTexts
        /// Where it came from: `rules.shadow` in the configuration, or the CLI (stored in the database).
        public let source: Source
    }

    public enum Source: String, Sendable {
        case configuration, database
    }

    private let current = Mutex<Current?>(nil)

    public init() {}

    public var state: Current? { current.withLock { $0 } }
    public var snapshot: ActiveRules.Snapshot? { state?.snapshot }

    func set(_ texts: RuleTexts, rules: RuleSet, source: Source) {
        let new = Current(snapshot: ActiveRules.Snapshot(rules), texts: texts, source: source)
        current.withLock { $0 = new }
    }

    func clear() { current.withLock { $0 = nil } }
}
