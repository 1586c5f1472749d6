/// A zip archive read from its central directory (APPNOTE.TXT §4.3.16: the end of central
/// directory record is the last thing in the file, so a truncated download has none).
/// Entries are inflated on demand, one chunk at a time (`ZipEntryStream`).
///
/// Every size, offset and count is read from the file and so is hostile: each is checked
/// against the file's size (or the directory's) before it is added to or used, so a crafted
/// header is refused as damage and never overflows, traps or reads out of bounds.
public final class ZipArchive {
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// 0 stored, 8 deflated.
        public var method: UInt16
        public var compressedSize: UInt64
        public var uncompressedSize: UInt64
        public var crc32: UInt32
        var localHeaderOffset: UInt64
    }

    /// The central directory is read whole: an export's is a few MB (46 bytes and a name per
    /// file); one larger than this is refused rather than allocated.
    public static let maxDirectoryBytes: UInt64 = 64 << 20

    let file: FileByteStream
    let fileSize: UInt64
    public let entries: [Entry]

    public init(path: String) throws(ZipError) {
        file = try FileByteStream(path: path)
        fileSize = try file.size()
        entries = try Self.centralDirectory(file, size: fileSize)
    }

    /// A stream of the entry's uncompressed bytes; its CRC-32 is checked at the end.
    public func open(_ entry: Entry) throws(ZipError) -> ZipEntryStream {
        let header = try file.bytes(30, at: entry.localHeaderOffset)
        guard header.count == 30, Self.u32(header, 0) == 0x0403_4b50 else {
            throw ZipError("the zip archive is damaged: no local header for \(entry.name)")
        }
        // No overflow: the offset is below the file's size (checked with the directory), which
        // `off_t` holds, and the two lengths are 16-bit.
        let dataStart = entry.localHeaderOffset + 30 + UInt64(Self.u16(header, 26)) + UInt64(Self.u16(header, 28))
        guard dataStart <= fileSize, entry.compressedSize <= fileSize - dataStart else {
            throw ZipError("the zip archive is damaged: the data of \(entry.name) would end past the end of the file")
        }
        return try ZipEntryStream(file: file, entry: entry, dataStart: dataStart)
    }

    static let truncated = ZipError("not a complete zip archive: its central directory is missing (is the file truncated?)")
    static let damagedDirectory = ZipError("the zip archive's central directory is damaged")

    static func centralDirectory(_ file: FileByteStream, size: UInt64) throws(ZipError) -> [Entry] {
        guard size >= 22 else { throw truncated }
        let tailLength = Int(min(size, 65_557))
        let tail = try file.bytes(tailLength, at: size - UInt64(tailLength))
        guard tail.count == tailLength else { throw truncated }
        guard let eocd = (0...(tailLength - 22)).reversed().first(where: { u32(tail, $0) == 0x0605_4b50 }) else { throw truncated }
        var count = UInt64(u16(tail, eocd + 10))
        var cdSize = UInt64(u32(tail, eocd + 12))
        var cdOffset = UInt64(u32(tail, eocd + 16))
        // Zip64: the locator just before the record points at the zip64 end of central directory.
        if (count == 0xFFFF || cdSize == 0xFFFF_FFFF || cdOffset == 0xFFFF_FFFF), eocd >= 20, u32(tail, eocd - 20) == 0x0706_4b50 {
            let at = u64(tail, eocd - 20 + 8)
            guard size >= 56, at <= size - 56 else {
                throw ZipError("the zip archive is damaged: its zip64 end of central directory lies outside the file")
            }
            let z = try file.bytes(56, at: at)
            guard z.count == 56, u32(z, 0) == 0x0606_4b50 else { throw truncated }
            count = u64(z, 32)
            cdSize = u64(z, 40)
            cdOffset = u64(z, 48)
        }
        guard cdOffset <= size, cdSize <= size - cdOffset else { throw truncated }
        guard cdSize <= maxDirectoryBytes else {
            throw ZipError("the zip archive's central directory is larger than \(maxDirectoryBytes >> 20) MiB (not a Health export)")
        }
        // Each entry takes at least 46 bytes of the directory.
        guard count <= cdSize / 46 else { throw damagedDirectory }
        let cd = try file.bytes(Int(cdSize), at: cdOffset)
        guard cd.count == Int(cdSize) else { throw truncated }
        var entries: [Entry] = []
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= cd.count, u32(cd, p) == 0x0201_4b50 else { throw damagedDirectory }
            let nameLength = Int(u16(cd, p + 28)), extraLength = Int(u16(cd, p + 30)), commentLength = Int(u16(cd, p + 32))
            guard p + 46 + nameLength + extraLength + commentLength <= cd.count else { throw damagedDirectory }
            var entry = Entry(name: String(decoding: cd[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self), method: u16(cd, p + 10),
                              compressedSize: UInt64(u32(cd, p + 20)), uncompressedSize: UInt64(u32(cd, p + 24)),
                              crc32: u32(cd, p + 16), localHeaderOffset: UInt64(u32(cd, p + 42)))
            zip64Extra(cd, from: p + 46 + nameLength, length: extraLength, into: &entry)
            guard entry.localHeaderOffset < size else { throw truncated }
            entries.append(entry)
            p += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// The zip64 extended information extra field (0x0001) holds, in order, the 64-bit values of
    /// those of uncompressed size, compressed size and offset whose 32-bit fields are all ones.
    /// Reads stay inside the entry's extra field (`start..<start + length`, itself inside the
    /// directory): a field that claims more bytes than are there gives only the values it holds.
    static func zip64Extra(_ b: [UInt8], from start: Int, length: Int, into e: inout Entry) {
        let end = start + length
        var p = start
        while p + 4 <= end {
            let id = u16(b, p), size = Int(u16(b, p + 2))
            let fieldEnd = min(p + 4 + size, end)
            if id == 0x0001 {
                var q = p + 4
                if e.uncompressedSize == 0xFFFF_FFFF, q + 8 <= fieldEnd { e.uncompressedSize = u64(b, q); q += 8 }
                if e.compressedSize == 0xFFFF_FFFF, q + 8 <= fieldEnd { e.compressedSize = u64(b, q); q += 8 }
                if e.localHeaderOffset == 0xFFFF_FFFF, q + 8 <= fieldEnd { e.localHeaderOffset = u64(b, q) }
                return
            }
            p += 4 + size
        }
    }

    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16 }
    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
}
