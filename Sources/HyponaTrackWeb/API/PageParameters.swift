import HyponaTrackDomain
/// The paging parameters of a newest-first list (`GET /v1/alerts`, `GET /v1/proposals`):
/// `before`, an id (only older entries: the next page), and `limit`, read in one place so both
/// lists refuse the same values the same way, naming the parameter.
enum PageParameters {
    /// `before` and `limit` as given (nil: absent); `refusal` says what `before` must be
    /// ("not an alert id").
    static func read(_ ctx: RequestContext, limits: ClosedRange<Int>, refusal: String) throws -> (before: Int64?, limit: Int?) {
        var before: Int64?, limit: Int?
        if let text = ctx.query("before") {
            guard let id = Int64(text), id > 0 else { throw APIError.invalid("before", refusal) }
            before = id
        }
        if let text = ctx.query("limit") {
            guard let n = Int(text), limits.contains(n) else {
                throw APIError.invalid("limit", "an integer \(limits.lowerBound)–\(limits.upperBound)")
            }
            limit = n
        }
        return (before, limit)
    }
}
