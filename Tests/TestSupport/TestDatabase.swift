import Foundation
import SQLite
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// A fresh database in its own temporary directory, migrated with the patients, security and
/// audit schemas (the audit key `AuditKey.forTests` attached), removed when the value is released.
final class TestDatabase {
    let directory: String
    let path: String
    let db: Connection

    /// A fixed "now" for tests: 2026-03-09T08:00:00Z, in epoch seconds.
    static let now: Double = 1_773_043_200

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/hyponatrack-server-tests-XXXXXX").utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown)
        }
        directory = String(cString: created)
        path = directory + "/test.sqlite"
        db = try Connection(path: path)
        db.attach(AuditKey.forTests)
        var migrator = Migrator()
        migrator.register("v1_patients") { try $0.execute(PatientsSchema.v1) }
        migrator.register("v1_security") { try $0.execute(SecuritySchema.v1) }
        migrator.register("v1_audit") { try $0.execute(AuditSchema.v1) }
        migrator.register("v19_sites") { try $0.execute(SitesSchema.v1) }
        try migrator.migrate(db)
    }

    deinit {
        db.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Inserts an enrolled patient directly and returns its id. The study ID key is the
    /// lower-cased study ID, as the store derives it.
    @discardableResult
    func insertPatient(studyId: String, withdrawn: Bool = false) throws -> Int64 {
        let ms = epochMilliseconds(Self.now)
        try db.execute("""
            INSERT INTO patients(study_id, study_id_key, profile, enrolled_at, enrolled_by, withdrawn_at, updated_at)
            VALUES (?, ?, '{}', ?, 'staff:nurse', ?, ?)
            """, [studyId, studyId.lowercased(), ms, withdrawn ? ms : nil, ms])
        return db.lastInsertRowID
    }

    /// Marks a patient withdrawn.
    func withdraw(patientId: Int64, at now: Double = TestDatabase.now) throws {
        try db.execute("UPDATE patients SET withdrawn_at = ? WHERE id = ?", [epochMilliseconds(now), patientId])
    }

    /// Runs `body` in one immediate transaction, as the daemon's group-commit job would.
    func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try db.transaction(.immediate) { try body(db) }
    }

    /// The bytes of the database file and its WAL (if any), for scanning for secrets.
    func fileBytes() throws -> [UInt8] {
        var bytes = [UInt8]()
        for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
            bytes += try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        }
        return bytes
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs as a contiguous byte sequence.
    func containsSequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if self[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
