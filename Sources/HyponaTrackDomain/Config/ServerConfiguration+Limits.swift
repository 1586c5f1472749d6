import HTJSON

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

    /// Reads the `limits` and `tokens` blocks of the top-level reader `r`.
    static func parseLimitsAndTokens(_ r: ObjectReader, into config: inout ServerConfiguration) throws(FieldError) {
        if let limits = try r.optional("limits", .any) {
            let lr = try ObjectReader(limits, path: "limits")
            config.limits.anonymousPerMinute = try lr.optional("anonymousPerMinute", .integer(1...100_000))
                ?? config.limits.anonymousPerMinute
            config.limits.itemsPerList = try lr.optional("itemsPerList", .integer(1...10_000)) ?? config.limits.itemsPerList
            try lr.finish()
        }
        if let tokens = try r.optional("tokens", .any) {
            let tr = try ObjectReader(tokens, path: "tokens")
            config.tokens.patientDaysAfterMonitoring = try tr.optional("patientDaysAfterMonitoring", .integer(0...3650))
                ?? config.tokens.patientDaysAfterMonitoring
            try tr.finish()
        }
    }
}
