extension ServerConfiguration {
    /// `limits`: what hostile traffic may cost, so one client cannot slow down everyone else
    /// (docs/product.md, "Limits under hostile traffic"; docs/operations.md §3.1).
    public struct Limits: Sendable {
        /// Refused or failed attempts per client address and minute on the anonymous routes
        /// (the token bucket's size and refill); successes take nothing.
        public var anonymousPerMinute = 30
        /// Items per list (`symptoms`, `reactionTests`, `tappingTests`, `desmopressinDoses`,
        /// `labSodium`) per patient day. A write that would take a list past it is refused.
        public var itemsPerList = 64

        public init() {}
    }

    /// `tokens`: bearer token lifetimes.
    public struct Tokens: Sendable {
        /// A patient token stops working this many days after the monitoring window ends.
        public var patientDaysAfterMonitoring = 30
    }
}
