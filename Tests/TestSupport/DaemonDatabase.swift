import Foundation
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The daemon's database (all migrations) in a temporary directory, removed afterwards.
final class DaemonDatabase {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("htdb-\(UUID().uuidString)")
    let database: Database

    init() throws { database = try Database(directory: directory) }

    deinit {
        database.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
