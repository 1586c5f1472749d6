import Foundation

/// A filesystem's size and the space an unprivileged writer may still use (`statvfs(3)`).
public struct FileSystemSpace: Sendable, Equatable {
    public let totalBytes: Int64
    public let availableBytes: Int64

    public init(totalBytes: Int64, availableBytes: Int64) {
        self.totalBytes = totalBytes
        self.availableBytes = availableBytes
    }

    /// The space of the filesystem holding `directory`, or nil when it cannot be asked.
    public static func of(_ directory: URL) -> FileSystemSpace? {
        var info = statvfs()
        guard statvfs(directory.path, &info) == 0 else { return nil }
        let block = Int64(info.f_frsize)
        return FileSystemSpace(totalBytes: Int64(info.f_blocks) * block, availableBytes: Int64(info.f_bavail) * block)
    }

    /// Why writing `bytes` more would leave less than `minimumFreeFraction` of the filesystem
    /// free, or nil when it would not (settled T: a backup that would leave less than 10 % is
    /// not started).
    func refusal(writing bytes: Int64, minimumFreeFraction: Double = 0.1) -> String? {
        let after = availableBytes - bytes
        guard Double(after) < Double(totalBytes) * minimumFreeFraction else { return nil }
        return "a copy of about \(bytes / 1_048_576) MiB would leave \(max(after, 0) / 1_048_576) MiB of \(totalBytes / 1_048_576) MiB free, "
            + "less than \(Int(minimumFreeFraction * 100)) %"
    }
}
