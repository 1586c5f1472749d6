import Synchronization

/// Where retry jitter comes from, injected like the clock so a test can pin a retry time.
/// Not for secrets: tokens and keys come from the CSPRNG (`Crypto.randomBytes`).
protocol RandomSource: Sendable {
    /// A number in [0, 1).
    func nextUnit() -> Double
}

extension RandomSource {
    /// `value` scaled by a random factor in [1 - fraction, 1 + fraction): retries of many rows
    /// that failed together spread out instead of returning together.
    func jitter(_ value: Double, by fraction: Double) -> Double {
        value * (1 - fraction + 2 * fraction * nextUnit())
    }
}

/// The system's generator (`SystemRandomNumberGenerator`).
struct SystemRandomSource: RandomSource {
    func nextUnit() -> Double { Double.random(in: 0..<1) }
}

/// A deterministic sequence from a seed (SplitMix64, Steele, Lea and Flood 2014), for tests.
final class SeededRandomSource: RandomSource {
    private let state: Mutex<UInt64>

    init(seed: UInt64) { state = Mutex(seed) }

    func nextUnit() -> Double {
        let bits = state.withLock { s -> UInt64 in
            s &+= 0x9E37_79B9_7F4A_7C15
            var z = s
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        // The top 53 bits, as a double in [0, 1) with every value equally likely.
        return Double(bits >> 11) * 0x1p-53
    }
}
