import Foundation

extension ServerConfiguration {
    /// `outcomes`: how episodes are recorded from lab values and how far back the outcome report
    /// looks for a warning (docs/clinical-rules.md, "Outcomes").
    public struct Outcomes: Sendable {
        /// A lab sodium strictly below this (mmol/L) on POD ≥ 1 records a `hyponatremia` outcome.
        public var hyponatremiaBelow = 135.0
        /// The days before an episode searched for its first yellow-or-red (and red) day, and
        /// after an alert's first day for an episode that follows it.
        public var lookbackDays = 7

        public init() {}
    }
}
