/// The pause before trying again something that keeps failing (a database write or read that
/// fails while the disk is full or another process holds the lock): `first` after the first
/// failure, doubling with each failure in a row up to `cap`, and back to the start after a
/// success. One place for the workers' "not once a second" rule: the hook outcomes that cannot
/// be recorded, a hook worker whose reads fail, the REDCap sync's database errors and a halt it
/// cannot record.
struct GrowingPause: Sendable, Equatable {
    let first: Double
    let cap: Double
    /// Failures in a row so far.
    private(set) var failures = 0

    init(first: Double, cap: Double) {
        self.first = first
        self.cap = cap
    }

    /// Counts a failure; returns the pause (seconds) before the next try.
    mutating func failed() -> Double {
        failures += 1
        return min(cap, first * Double(1 << min(failures - 1, 30)))
    }

    /// Counts a success; returns how many failures in a row it ends (0: none, nothing to report).
    @discardableResult
    mutating func succeeded() -> Int {
        defer { failures = 0 }
        return failures
    }
}
