import Foundation

/// Where `export` and `report` put what the daemon sent. `-o FILE` replaces FILE, owner-only
/// (0600: the files hold pseudonymous clinical data), and prints a one-line summary. Without
/// `-o`, or with `-o -` as curl, tar and most tools read `-`, the bytes go to standard output as
/// they came — nothing added, nothing decoded, so a PDF or zip stays byte for byte what the
/// server sent — and nothing else is printed there. A file really named `-` is `-o ./-`.
enum DownloadOutput {
    static let standardOutput = "-"

    /// The `-o` paragraph of a command's help; `what` is "CSV" or "PDF".
    static func help(_ what: String) -> String {
        """
        -o FILE, --output FILE: write the \(what) to FILE (created owner-only, 0600) and print a
        summary. Without -o, or with -o -, the \(what) goes to standard output as the server sent
        it, and nothing else is printed there (to write a file named -, say -o ./-).
        """
    }

    /// Writes `bytes` to `output` (nil or `-`: standard output); `summary` says what was
    /// written to a file.
    static func deliver(_ bytes: [UInt8], output: String?, io: CLIOutput, summary: (String) -> String) throws {
        guard let file = output, file != standardOutput else {
            io.bytes(bytes)
            return
        }
        try write(bytes, to: file)
        io.out(summary(file))
    }

    struct WriteFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Replaces FILE with the bytes, owner-only.
    static func write(_ bytes: [UInt8], to file: String) throws {
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteFailure(description: "cannot write \(file): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw WriteFailure(description: "cannot write \(file): \(String(cString: strerror(errno)))") }
            offset += n
        }
    }
}
