import Foundation
import HyponaTrackCore

/// A backup in the backup directory: `hyponatrack-2026-12-09T101500-123Z.sqlite` (the UTC time
/// it was taken, sortable) and, when this release wrote it, its manifest beside it
/// (`hyponatrack-2026-12-09T101500-123Z.json`).
public struct BackupFile: Sendable, Equatable {
    public let name: String
    public let path: String
    /// ms since the epoch, from the name.
    public let createdAt: Int64
    public let bytes: Int
    /// What the checks after writing found; nil for a file without one (an earlier release's).
    public let manifest: BackupManifest?
}

/// What was checked when a backup was written, kept beside it: `backup verify` compares the
/// file's SHA-256 with it, so any change to the file after writing is found, not only the
/// corruption SQLite's integrity check sees.
public struct BackupManifest: Codable, Sendable, Equatable {
    public let sha256: String
    public let bytes: Int
    public let createdAt: Int64
    /// The last migration recorded in the copy (`v18_push`).
    public let schemaVersion: String
    public let auditRows: Int
    /// The copy's audit chain head as `SEQ:HEX` (nil: an empty trail).
    public let auditHead: String?
}

/// Names, listing and clean-up of the backup directory. A backup is written under a hidden
/// temporary name (`.hyponatrack-….sqlite.tmp`, SQLite's own `….partial` first), checked, its
/// manifest written, and only then renamed to its final name: a listing never shows a partial
/// file, and what a crash leaves behind is hidden and removed at the next backup.
enum BackupDirectory {
    static let prefix = "hyponatrack-"

    /// `hyponatrack-2026-12-09T101500-123Z.sqlite` for `ms`.
    static func name(at ms: Int64) -> String {
        prefix + stamp(ms) + ".sqlite"
    }

    static func stamp(_ ms: Int64) -> String {
        iso8601UTC(milliseconds: ms).replacingOccurrences(of: ":", with: "").replacingOccurrences(of: ".", with: "-")
    }

    /// The time in a backup's name, or nil when it is not one.
    static func createdAt(ofName name: String) -> Int64? {
        guard name.hasPrefix(prefix), name.hasSuffix(".sqlite") else { return nil }
        let stamp = Array(name.dropFirst(prefix.count).dropLast(".sqlite".count))
        // 2026-12-09T101500-123Z → 2026-12-09T10:15:00.123Z
        guard stamp.count == 22, stamp[10] == "T", stamp[17] == "-", stamp[21] == "Z" else { return nil }
        let iso = String(stamp[0..<13]) + ":" + String(stamp[13..<15]) + ":" + String(stamp[15..<17]) + "."
            + String(stamp[18..<21]) + "Z"
        return Timestamp(iso).map { epochMilliseconds($0.epochSeconds) }
    }

    static func manifestPath(_ backupPath: String) -> String {
        String(backupPath.dropLast(".sqlite".count)) + ".json"
    }

    static func temporaryPath(_ directory: URL, name: String) -> String {
        directory.appendingPathComponent("." + name + ".tmp").path
    }

    /// Every backup in `directory`, newest first (none when it does not exist).
    static func list(_ directory: URL) -> [BackupFile] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name -> BackupFile? in
            guard let createdAt = createdAt(ofName: name) else { return nil }
            let path = directory.appendingPathComponent(name).path
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return BackupFile(name: name, path: path, createdAt: createdAt, bytes: bytes, manifest: manifest(of: path))
        }.sorted { $0.createdAt > $1.createdAt }
    }

    static func manifest(of backupPath: String) -> BackupManifest? {
        guard let data = FileManager.default.contents(atPath: manifestPath(backupPath)) else { return nil }
        return try? JSONDecoder().decode(BackupManifest.self, from: data)
    }

    /// Removes what an interrupted backup left: hidden temporary files, and manifests whose
    /// backup never got its final name. Returns the names removed.
    @discardableResult
    static func removeLeftovers(_ directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let backups = Set(names.filter { createdAt(ofName: $0) != nil })
        var removed: [String] = []
        for name in names {
            // The copy under its hidden name, SQLite's `.partial` and its `-journal` beside it.
            let hidden = name.hasPrefix("." + prefix)
            // A manifest being written (`OwnerOnlyFile.write`), or one whose backup never got its name.
            let manifest = name.hasPrefix(prefix) && (name.hasSuffix(".json.tmp")
                || (name.hasSuffix(".json") && !backups.contains(String(name.dropLast(5)) + ".sqlite")))
            guard hidden || manifest else { continue }
            if unlink(directory.appendingPathComponent(name).path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Deletes a backup and its manifest.
    static func remove(_ backup: BackupFile) {
        unlink(manifestPath(backup.path))
        unlink(backup.path)
    }

    /// fsync `directory`, so renames and removals in it survive a power loss.
    static func sync(_ directory: URL) {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
