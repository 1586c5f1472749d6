/// Request identifiers: 16 lowercase hex digits from the system CSPRNG (`getrandom`), so
/// they cannot be guessed or collide across restarts the way a counter would.
enum RequestID {
    static func make() -> String {
        let value = UInt64.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
