import CZlib

/// One entry's uncompressed bytes, inflated chunk by chunk (raw deflate, zlib `windowBits`
/// -15 as zip stores it: "windowBits can also be -8..-15 for raw deflate", zlib.h). Memory is
/// one compressed chunk and zlib's 32 KiB window, whatever the entry's size. The CRC-32 and
/// the size from the central directory are checked when the entry ends; output past that size
/// is refused as soon as its first byte appears, so a zip bomb costs no more inflating than
/// its declared size.
public final class ZipEntryStream: ByteStream {
    let file: FileByteStream
    public let entry: ZipArchive.Entry
    var position: UInt64
    let end: UInt64
    /// zlib keeps a pointer back to its `z_stream` and checks it on every call, so it must not move.
    let stream: UnsafeMutablePointer<z_stream>
    let input: UnsafeMutableRawBufferPointer
    var finished = false
    var inflating = false
    var crc: UInt = 0
    var produced: UInt64 = 0

    init(file: FileByteStream, entry: ZipArchive.Entry, dataStart: UInt64) throws(ZipError) {
        guard entry.method == 0 || entry.method == 8 else {
            throw ZipError("\(entry.name) uses zip compression method \(entry.method); only stored and deflated entries can be read")
        }
        self.file = file
        self.entry = entry
        position = dataStart
        // `ZipArchive.open` checked that the data lies inside the file.
        let (end, overflow) = dataStart.addingReportingOverflow(entry.compressedSize)
        guard !overflow else { throw ZipError("the zip archive is damaged: the data of \(entry.name) would end past the end of the file") }
        self.end = end
        input = .allocate(byteCount: 256 * 1024, alignment: 16)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        if entry.method == 8 {
            inflating = inflateInit2_(stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
            guard inflating else {
                throw ZipError("zlib could not start inflating \(entry.name)")
            }
        }
    }

    deinit {
        if inflating { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        guard produced <= entry.uncompressedSize else { throw Self.oversized(entry) }
        // Room for at most one byte more than the declared size: that byte is the refusal.
        let left = entry.uncompressedSize - produced
        let room = min(left < UInt64(buffer.count) ? Int(left) + 1 : buffer.count, Int(UInt32.max))
        let out = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<room])
        let n = entry.method == 0 ? try readStored(out) : try inflate(out)
        if n > 0 {
            crc = CZlib.crc32(crc, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(n))
            produced += UInt64(n)
        }
        guard produced <= entry.uncompressedSize else { throw Self.oversized(entry) }
        if finished {
            guard produced == entry.uncompressedSize, UInt32(truncatingIfNeeded: crc) == entry.crc32 else {
                throw ZipError("\(entry.name) in the zip archive is damaged (its size or CRC-32 does not match)")
            }
        }
        return n
    }

    private func readStored(_ buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
        let want = Int(min(UInt64(buffer.count), end - position))
        let n = try file.pread(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: position)
        guard n == want else { throw Self.truncated(entry) }
        position += UInt64(n)
        if position == end { finished = true }
        return n
    }

    private func inflate(_ buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
        stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
        while stream.pointee.avail_out > 0 {
            if stream.pointee.avail_in == 0 {
                guard position < end else { throw Self.truncated(entry) }
                let want = Int(min(UInt64(input.count), end - position))
                let n = try file.pread(into: UnsafeMutableRawBufferPointer(rebasing: input[0..<want]), at: position)
                guard n == want else { throw Self.truncated(entry) }
                position += UInt64(n)
                stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = UInt32(n)
            }
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            if status == Z_STREAM_END { finished = true; break }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                throw ZipError("\(entry.name) in the zip archive cannot be inflated (zlib error \(status))")
            }
        }
        return buffer.count - Int(stream.pointee.avail_out)
    }

    static func oversized(_ entry: ZipArchive.Entry) -> ZipError {
        ZipError("\(entry.name) in the zip archive holds more than the \(entry.uncompressedSize) bytes its header declares "
                 + "(the archive is damaged or built to exhaust the server)")
    }

    static func truncated(_ entry: ZipArchive.Entry) -> ZipError {
        ZipError("\(entry.name) ends early: the zip archive is truncated")
    }
}
