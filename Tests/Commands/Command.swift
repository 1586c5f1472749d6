import Foundation

/// A child process run to its end, its output read from files (no pipe to fill up and stall):
/// the third-party checkers the push-crypto and QR code tests run (Python libraries, openssl,
/// rsvg-convert, zbarimg).
public enum Command {
    public struct Output: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs `arguments` through `/usr/bin/env` (so the first is looked up in `PATH`).
    public static func run(_ arguments: [String]) throws -> Output {
        let directory = try Scratch(prefix: "Command")
        defer { directory.remove() }
        let out = directory.path("stdout"), err = directory.path("stderr")
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}

/// A fresh directory under the temporary directory, removed by `remove()`.
public struct Scratch: Sendable {
    public let url: URL

    public init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    public func write(_ bytes: [UInt8], to name: String) throws { try Data(bytes).write(to: url.appendingPathComponent(name)) }
    public func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: url.appendingPathComponent(name))) }
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
