import Foundation

/// Min, median and max of repeated measurements.
struct Spread {
    let min: Double
    let median: Double
    let max: Double

    init(_ values: [Double]) {
        let s = values.sorted()
        precondition(!s.isEmpty, "Spread of no values")
        min = s.first!
        max = s.last!
        median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// "min A / median B / max C" with `digits` decimals.
    func text(_ digits: Int = 0) -> String {
        "min \(fmt(min, digits)) / median \(fmt(median, digits)) / max \(fmt(max, digits))"
    }
}

/// `value` with `digits` decimals.
func fmt(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }

/// kB (as in `/proc`) as MiB with one decimal.
func mib(_ kilobytes: Int) -> String { String(format: "%.1f MiB", Double(kilobytes) / 1024) }

/// "HTTP 503 ×3, timeout ×1" or "none".
func errorList(_ errors: [String: Int]) -> String {
    errors.isEmpty ? "none" : errors.sorted { $0.value > $1.value }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
}

/// Prints and flushes at once, so the output interleaves correctly with a `tee` and stays
/// readable if the benchmark dies midway.
func say(_ line: String = "") {
    print(line)
    fflush(nil)  // all streams; the C `stdout` global cannot be named in Swift 6
}

/// "met" or "not met".
func verdict(_ met: Bool) -> String { met ? "met" : "not met" }
