/// Which backups to keep (docs/product.md, settled T): the newest backup of each of the last
/// `keepHourly` clock hours and of each of the last `keepDaily` UTC days, counted back from
/// `now`, and always the newest one. Scheduled and on-demand backups count alike. A pure
/// function of the times: the caller deletes the rest.
enum BackupRetention {
    /// The creation times (ms) of the backups to keep, out of `backups` (ms).
    static func keep(_ backups: [Int64], now ms: Int64, keepHourly: Int, keepDaily: Int) -> Set<Int64> {
        var kept: Set<Int64> = []
        if let newest = backups.max() { kept.insert(newest) }
        kept.formUnion(newestPerBucket(backups, now: ms, bucket: 3_600_000, count: keepHourly))
        kept.formUnion(newestPerBucket(backups, now: ms, bucket: 86_400_000, count: keepDaily))
        return kept
    }

    /// The newest backup in each of the `count` buckets of `bucket` ms that end with the one
    /// holding `now` (UTC clock hours and days: buckets start at multiples of their length).
    private static func newestPerBucket(_ backups: [Int64], now ms: Int64, bucket: Int64, count: Int) -> Set<Int64> {
        let current = floorDiv(ms, bucket)
        var newest: [Int64: Int64] = [:]
        for at in backups {
            let b = floorDiv(at, bucket)
            guard b <= current, b > current - Int64(count) else { continue }
            newest[b] = max(newest[b] ?? .min, at)
        }
        return Set(newest.values)
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
