import Foundation

/// Whether standard error is the journal's stream. systemd sets `$JOURNAL_STREAM` when it connects
/// a service's stdout or stderr to the journal: "contains the device and inode numbers of the
/// file descriptor, formatted in decimal, separated by a colon (":"). … Programs may check this
/// environment variable and compare it with the device and inode numbers of their standard error
/// file descriptor, in order to detect whether it is connected to the journal" (systemd.exec(5),
/// "Environment variables set or propagated by the service manager"). The variable alone is not
/// enough: it is inherited by children and survives `2>file`, where `<N>` prefixes would be noise.
enum JournalStream {
    /// Whether `value` (`$JOURNAL_STREAM`) names the file with this device and inode.
    static func matches(_ value: String?, device: UInt64, inode: UInt64) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let d = UInt64(parts[0]), let i = UInt64(parts[1]) else { return false }
        return d == device && i == inode
    }

    /// Whether `value` names this process's file descriptor 2 (`fstat`).
    static func isStandardError(_ value: String?) -> Bool {
        guard value != nil else { return false }
        var info = stat()
        guard fstat(2, &info) == 0 else { return false }
        return matches(value, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
