import Foundation
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

extension AuditKey {
    /// A fixed key for tests: 32 bytes of 0x5a.
    static let forTests = try! AuditKey(bytes: [UInt8](repeating: 0x5a, count: 32), source: "the tests' audit key")
}

extension Database {
    /// The daemon's database keyed with `AuditKey.forTests`.
    convenience init(directory: URL) throws {
        try self.init(directory: directory, auditKey: .forTests)
    }
}
