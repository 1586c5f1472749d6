import Foundation
import Crypto
import HyponaTrackKit
import HTTPServer
import SQLite

// The daemon arrives with the daemon issue; for now it starts, checks that its C libraries and
// the rule files load, prints its version and exits.
Crypto.initialize()
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") {
    print("Usage: hyponatrackd [--version] [--check-rules DIR]\nThe daemon (HTTP API, storage, sync) is not built yet.")
    exit(0)
}
print("hyponatrackd \(HyponaTrackVersion.string) (SQLite \(SQLiteLibrary.version), libcurl \("-"), "
      + "libmicrohttpd \(MicroHTTPDLibrary.version), \(Crypto.libraryVersion))")
if let i = arguments.firstIndex(of: "--check-rules"), i + 1 < arguments.count {
    do {
        let rules = try RulesLoader.load(directory: URL(fileURLWithPath: arguments[i + 1]))
        print("rules \(rules.version) valid")
    } catch {
        FileHandle.standardError.write(Data("invalid rules: \(error)\n".utf8))
        exit(1)
    }
}
