import Foundation

/// `--server`, `--token`, `--token-file`: accepted before the command and after it (and its
/// subcommand), by every command; the offline ones ignore them.
public enum GlobalOptions {
    public static let names: Set<String> = ["server", "token", "token-file"]

    /// The help paragraph every staff command ends with.
    static let footer = """
        Global options (before or after the command): --server URL (else HYPONATRACK_SERVER, else
        http://127.0.0.1:8750); --token-file PATH or --token TOKEN, not both (else HYPONATRACK_TOKEN);
        -h, --help. See hyponatrack --help.
        """

    /// What stands before the command: global options, `-h`/`--help`, `--version`.
    struct Leading {
        /// The global options, normalised to `--name value` pairs, for the command to parse.
        var options: [String] = []
        var help = false
        var version = false
        /// The command and everything after it.
        var rest: [String] = []
    }

    /// Splits off the options before the command; any other option there is a usage error
    /// naming it (a command's own options go after the command).
    static func leading(_ args: [String]) throws(UsageError) -> Leading {
        var leading = Leading()
        var i = 0
        while i < args.count, let (name, inline) = Arguments.option(args[i]) {
            let arg = args[i]
            i += 1
            switch name {
            case "help": leading.help = true
            case "version": leading.version = true
            case _ where names.contains(name):
                if let inline { leading.options += ["--\(name)", inline]; continue }
                guard i < args.count else { throw UsageError("--\(name) needs a value") }
                leading.options += ["--\(name)", args[i]]
                i += 1
            default:
                throw UsageError("unknown option \(arg.split(separator: "=", maxSplits: 1)[0]) before the command "
                                 + "(only --server, --token, --token-file, --help and --version go there; "
                                 + "a command's own options go after it)")
            }
        }
        if i < args.count, args[i] == "--" { i += 1 }
        leading.rest = Array(args[i...])
        return leading
    }

    /// The staff token: `--token`, else `--token-file`, else `HYPONATRACK_TOKEN`; both options at
    /// once is a usage error. Surrounding whitespace is trimmed.
    static func token(_ a: Arguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageError) -> String? {
        switch (a.value("token"), a.value("token-file")) {
        case (_?, _?): throw UsageError("--token and --token-file exclude each other: give one")
        case (let token?, nil): return token.trimmingCharacters(in: .whitespacesAndNewlines)
        case (nil, let path?): return try TokenFile.read(path)
        case (nil, nil): return environment["HYPONATRACK_TOKEN"].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
    }
}

/// `--token-file PATH`: a staff token kept out of `ps` and the shell history. Like the daemon's
/// secret files it must be readable by its owner only (no group or other bits: 0600 or 0400);
/// every refusal is a usage error (exit 64) naming the file.
enum TokenFile {
    static func read(_ path: String) throws(UsageError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw UsageError("--token-file \(path): cannot open it (\(String(cString: strerror(errno))))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw UsageError("--token-file \(path): cannot stat it (\(String(cString: strerror(errno))))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw UsageError("--token-file \(path): not a regular file") }
        guard info.st_mode & 0o077 == 0 else {
            throw UsageError("--token-file \(path) is open to group or others (mode \(String(info.st_mode & 0o777, radix: 8))); "
                             + "it must be readable by its owner only: chmod 600 \(path)")
        }
        let data: Data
        do { data = try handle.readToEnd() ?? Data() } catch {
            throw UsageError("--token-file \(path): cannot read it (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw UsageError("--token-file \(path): not UTF-8 text") }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw UsageError("--token-file \(path) is empty") }
        return token
    }
}
