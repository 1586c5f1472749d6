import Foundation

/// A temporary configuration directory: the four rule files and `hyponatrack.json` copied from
/// `config/`, or `hyponatrack.json` written from `server` when given. Tests edit the copies.
struct ConfigDirectory {
    static let ruleFiles = ["risk-model.json", "thresholds.json", "reminders.json", "instructions.json"]

    let url: URL
    var serverFile: URL { url.appendingPathComponent("hyponatrack.json") }

    init(server: String? = nil) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for name in Self.ruleFiles + (server == nil ? ["hyponatrack.json"] : []) {
            try FileManager.default.copyItem(at: Repo.config.appendingPathComponent(name), to: url.appendingPathComponent(name))
        }
        if let server { try write(server, to: "hyponatrack.json") }
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Makes `thresholds.json` invalid (a number written as a string, at
    /// `scaled.weight_gain_pct.yellow`); returns its URL.
    @discardableResult
    func breakThresholds() throws -> URL {
        let thresholds = file("thresholds.json")
        let text = try String(contentsOf: thresholds, encoding: .utf8)
        try text.replacingOccurrences(of: "\"yellow\": 1.5", with: "\"yellow\": \"1.5\"").write(to: thresholds, atomically: true, encoding: .utf8)
        return thresholds
    }

    /// Writes `text` to `name` in the directory, with `mode` when given (secret files).
    func write(_ text: String, to name: String, mode: mode_t? = nil) throws {
        try text.write(to: file(name), atomically: true, encoding: .utf8)
        if let mode, chmod(file(name).path, mode) != 0 { throw TestFailure("chmod \(name)") }
    }
}
