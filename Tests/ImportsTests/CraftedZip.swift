import Foundation
import Zip

/// Zip archives built byte by byte in APPNOTE.TXT's layouts, for headers no zip writer would
/// write (the hostile inputs of the import review, made in the test rather than checked in).
enum CraftedZip {
    struct Member {
        var name: String
        /// The bytes as they lie in the file (deflated when `method` is 8).
        var data: [UInt8]
        var method: UInt16 = 0
        var crc: UInt32
        var compressedSize: UInt32
        var uncompressedSize: UInt32
        /// The central directory's extra field (zip64 values go here).
        var extra: [UInt8] = []
        var localHeaderOffset: UInt32?
    }

    static func stored(_ name: String, _ text: String) -> Member {
        let bytes = Array(text.utf8)
        return Member(name: name, data: bytes, crc: crc32(bytes), compressedSize: UInt32(bytes.count), uncompressedSize: UInt32(bytes.count))
    }

    /// `count` spaces, deflated (by Python's zlib: an independent writer) but declared as
    /// `declared` bytes: the shape of a zip bomb that lies about its size.
    static func lyingSpaces(_ name: String, count: Int, declared: UInt32) throws -> Member {
        let data = try python("import sys, zlib\nc = zlib.compressobj(9, zlib.DEFLATED, -15)\n"
                              + "sys.stdout.buffer.write(c.compress(b' ' * \(count)) + c.flush())")
        return Member(name: name, data: data, method: 8, crc: 0, compressedSize: UInt32(data.count), uncompressedSize: declared)
    }

    /// Local headers and data, the central directory, then `tail(directory offset, size, count)`
    /// (by default the end of central directory record).
    static func bytes(_ members: [Member], tail: (Int, Int, Int) -> [UInt8] = endOfDirectory(offset:size:count:)) -> [UInt8] {
        var out: [UInt8] = [], cd: [UInt8] = []
        for m in members {
            let name = Array(m.name.utf8), offset = out.count
            out += le(0x0403_4b50, 4) + le(20, 2) + le(0, 2) + le(UInt64(m.method), 2) + le(0, 4) + le(UInt64(m.crc), 4)
                + le(UInt64(m.compressedSize), 4) + le(UInt64(m.uncompressedSize), 4) + le(UInt64(name.count), 2) + le(0, 2) + name + m.data
            cd += le(0x0201_4b50, 4) + le(45, 2) + le(20, 2) + le(0, 2) + le(UInt64(m.method), 2) + le(0, 4) + le(UInt64(m.crc), 4)
                + le(UInt64(m.compressedSize), 4) + le(UInt64(m.uncompressedSize), 4) + le(UInt64(name.count), 2)
                + le(UInt64(m.extra.count), 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4)
                + le(UInt64(m.localHeaderOffset ?? UInt32(offset)), 4) + name + m.extra
        }
        return out + cd + tail(out.count, cd.count, members.count)
    }

    static func endOfDirectory(offset: Int, size: Int, count: Int) -> [UInt8] {
        le(0x0605_4b50, 4) + le(0, 4) + le(UInt64(count), 2) + le(UInt64(count), 2) + le(UInt64(size), 4) + le(UInt64(offset), 4) + le(0, 2)
    }

    /// A zip64 end of central directory record at `recordAt` (where the caller puts it), its
    /// locator (which may point elsewhere: `locatorPointsAt`), and an end record of all ones.
    static func zip64Tail(directoryOffset: UInt64, directorySize: UInt64, count: UInt64, recordAt: Int,
                          locatorPointsAt: UInt64? = nil) -> [UInt8] {
        le(0x0606_4b50, 4) + le(44, 8) + le(45, 2) + le(45, 2) + le(0, 4) + le(0, 4) + le(count, 8) + le(count, 8)
            + le(directorySize, 8) + le(directoryOffset, 8)
            + le(0x0706_4b50, 4) + le(0, 4) + le(locatorPointsAt ?? UInt64(recordAt), 8) + le(1, 4)
            + le(0x0605_4b50, 4) + le(0, 4) + le(0xFFFF, 2) + le(0xFFFF, 2) + le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(0, 2)
    }

    /// The zip64 extended information extra field: tag 1, the size it claims, then `values`.
    static func zip64Extra(claiming size: Int, _ values: [UInt64]) -> [UInt8] {
        le(1, 2) + le(UInt64(size), 2) + values.flatMap { le($0, 8) }
    }

    static func le(_ v: UInt64, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    static func write(_ bytes: [UInt8], in dir: URL, _ name: String = "crafted.zip") throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func python(_ script: String) throws -> [UInt8] {
        let p = Process(), out = Pipe()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script]
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw ZipError("python3 could not deflate") }
        return Array(data)
    }
}
