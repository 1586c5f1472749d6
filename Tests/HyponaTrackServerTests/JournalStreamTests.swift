import Foundation
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// `$JOURNAL_STREAM` counts only when it names standard error (systemd.exec(5)).
@Suite struct JournalStreamTests {
    @Test func aValueMatchesOnlyItsOwnDeviceAndInode() {
        #expect(JournalStream.matches("2049:1234567", device: 2049, inode: 1_234_567))
        #expect(!JournalStream.matches("2049:1234567", device: 2049, inode: 1_234_568))
        #expect(!JournalStream.matches("2049:1234567", device: 2050, inode: 1_234_567))
    }

    @Test func anAbsentOrMalformedValueNeverMatches() {
        for value in [nil, "", "2049", "2049:", ":1234567", "2049:1234567:1", "8:1a", "-1:5", " 2049:1234567"] {
            #expect(!JournalStream.matches(value, device: 2049, inode: 1_234_567), "\(value ?? "nil")")
        }
    }

    @Test func theDeviceIsTheWholeDevTNotMajorColonMinor() {
        // systemd prints st_dev as one decimal number: device 8:1 is 2049, never "8:1".
        #expect(!JournalStream.matches("8:1:1234567", device: 2049, inode: 1_234_567))
        #expect(JournalStream.matches("\(UInt64.max):1", device: .max, inode: 1))
    }

    @Test func standardErrorIsComparedByFstat() {
        var info = stat()
        #expect(fstat(2, &info) == 0)
        #expect(JournalStream.isStandardError("\(info.st_dev):\(info.st_ino)"))
        #expect(!JournalStream.isStandardError("\(info.st_dev):\(info.st_ino + 1)"))
        #expect(!JournalStream.isStandardError(nil))
    }
}
