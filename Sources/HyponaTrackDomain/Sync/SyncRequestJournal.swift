/// The REDCap requests of the last minute in `sync_requests` (migration `v11_sync_requests`),
/// for ``RequestPacer``: a row is written before its request goes out (so a kill from then on
/// still counts it) and stamped when the answer came. Times are wall-clock epoch ms, read back
/// only as ages: a request the previous process died waiting for counts as answered at the next
/// start, and one stamped in the future (the clock was stepped back) as answered now, so neither
/// counts for more than a minute. The journal keeps the clock and the transactions; its
/// statements are `SyncRequestRepository`'s.
struct SyncRequestJournal: RequestJournal {
    let database: Database
    let clock: any ServerClock
    let logger: Logger

    func recentAges() throws -> [Double] {
        let ms = epochMilliseconds(clock.now())
        let times = try database.write { db in try SyncRequestRepository.settle(db, now: ms) }
        return times.map { Double(ms - $0) / 1000 }
    }

    func started() -> Int64? {
        let ms = epochMilliseconds(clock.now())
        do {
            return try database.write { db in try SyncRequestRepository.insert(db, at: ms) }
        } catch {
            // The request still goes out: the in-memory window holds this process to the cap.
            logger.error("redcap sync: the request could not be written down; a restart within a minute will not count it",
                         ["error": "\(error)"])
            return nil
        }
    }

    func answered(_ row: Int64) {
        let ms = epochMilliseconds(clock.now())
        // Off the request's path: the row already counts from its start.
        database.submit({ db in try SyncRequestRepository.answered(db, row: row, at: ms) }) { [logger] result in
            if case .failure(let error) = result {
                logger.warning("redcap sync: the answer time of a request could not be written", ["error": "\(error)"])
            }
        }
    }
}
