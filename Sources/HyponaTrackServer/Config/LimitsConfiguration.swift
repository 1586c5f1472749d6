import HTJSON

extension ServerConfiguration {
    /// `limits`: caps that keep one client from slowing down everyone else (docs/product.md,
    /// "Limits under hostile traffic"; docs/operations.md §3.1).
    public struct Limits: Sendable {
        /// Items per list (`symptoms`, `reactionTests`, `tappingTests`, `desmopressinDoses`,
        /// `labSodium`) per patient day. A write that would take a list past it is refused.
        public var itemsPerList: Int = 64

        public init() {}

        static func parse(_ json: JSONValue) throws(FieldError) -> Limits {
            let r = try ObjectReader(json, path: "limits")
            var limits = Limits()
            limits.itemsPerList = try r.optional("itemsPerList", .integer(1...10_000)) ?? limits.itemsPerList
            try r.finish()
            return limits
        }
    }
}
