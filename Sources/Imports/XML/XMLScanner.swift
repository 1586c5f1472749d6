import Zip

#if canImport(Glibc)
import Glibc
#endif

/// A streaming, byte-level XML reader for large documents such as the Health app's
/// `export.xml` (often hundreds of MB): it holds one chunk (1 MiB, more only for a single tag
/// longer than that) and the stack of open element names, so memory does not grow with the
/// file. It reports every start tag with its attributes and checks what keeps a damaged
/// file from being taken for a complete one: tags closed in order, one root element, every
/// tag, comment, declaration and attribute value terminated before the end.
///
/// Not a validating parser: the DTD's internal subset is skipped (the export declares one),
/// entities other than XML's predefined and numeric ones are not expanded, text is ignored.
public final class XMLScanner {
    public typealias Handler = (XMLStartTag) throws(ImportFileError) -> Void

    static let maxTagBytes = 64 << 20
    /// The export nests three deep; a hostile file must not grow the name stack with its size.
    static let maxDepth = 256
    /// A start tag of the export is well under 1 KiB (a Record has nine attributes); these
    /// bound what one hostile tag can make the scanner hold (its bytes, its attribute spans,
    /// and with `maxDepth` the stack of open names).
    static let maxStartTagBytes = 1 << 20
    static let maxAttributes = 256
    static let maxNameBytes = 1024
    var buffer: UnsafeMutablePointer<UInt8>
    var capacity: Int
    /// Bytes of the document dropped before `buffer[0]`.
    var consumed = 0
    var end = 0
    var eof = false
    var names: [UInt8] = []
    var nameEnds: [Int] = []
    var spans: UnsafeMutablePointer<(Int, Int, Int, Int)>
    var spanCapacity = 64
    var sawRoot = false

    public init(chunkSize: Int = 1 << 20) {
        capacity = chunkSize
        buffer = .allocate(capacity: chunkSize)
        spans = .allocate(capacity: spanCapacity)
    }

    deinit {
        buffer.deallocate()
        spans.deallocate()
    }

    enum Step { case next(Int), needMore }

    /// Reads `stream` to its end, calling `handler` for each start tag in document order.
    public func scan<S: ByteStream>(_ stream: inout S, _ handler: Handler) throws(ImportFileError) {
        var pos = 0
        while true {
            let lt = pos < end ? memchr(buffer + pos, Int32(UInt8(ascii: "<")), end - pos) : nil
            let textEnd = lt.map { $0.assumingMemoryBound(to: UInt8.self) - buffer } ?? end
            if nameEnds.isEmpty { try checkWhitespace(pos, textEnd) }
            pos = textEnd
            if lt != nil {
                switch try markup(at: pos, handler) {
                case .next(let next): pos = next; continue
                case .needMore:
                    if eof { throw error(pos, "the document ends inside a tag (is the file truncated?)") }
                }
            } else if eof {
                break
            }
            pos = try refill(&stream, keepingFrom: pos)
        }
        guard sawRoot else { throw ImportFileError("not an XML document: it has no root element") }
        if !nameEnds.isEmpty {
            throw ImportFileError("the document ends before </\(String(decoding: names[topStart...], as: UTF8.self))> (is the file truncated?)")
        }
    }

    /// Moves the unread bytes to the front and reads more; returns the new position of `pos`.
    func refill<S: ByteStream>(_ stream: inout S, keepingFrom pos: Int) throws(ImportFileError) -> Int {
        let kept = end - pos
        if pos > 0 { memmove(buffer, buffer + pos, kept) }
        consumed += pos
        end = kept
        if end == capacity {
            guard capacity < Self.maxTagBytes else { throw error(0, "a tag longer than \(Self.maxTagBytes >> 20) MiB") }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        let n: Int
        do { n = try stream.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end)) } catch {
            throw ImportFileError(error.message)
        }
        if n == 0 { eof = true }
        end += n
        return 0
    }

    func error(_ pos: Int, _ message: String) -> ImportFileError {
        ImportFileError("malformed XML at byte \(consumed + pos): \(message)")
    }

    var topStart: Int { nameEnds.count > 1 ? nameEnds[nameEnds.count - 2] : 0 }

    func checkWhitespace(_ from: Int, _ to: Int) throws(ImportFileError) {
        var i = from
        while i < to {
            let b = buffer[i]
            // A UTF-8 byte order mark may open the document.
            if consumed + i == 0, to - i >= 3, b == 0xEF, buffer[i + 1] == 0xBB, buffer[i + 2] == 0xBF { i += 3; continue }
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else {
                throw error(i, sawRoot ? "text after the root element" : "text before the root element")
            }
            i += 1
        }
    }

    /// The index just past the first occurrence of `terminator` at or after `from`, nil if the
    /// buffer ends first.
    func find(_ terminator: StaticString, from: Int) -> Int? {
        let t = terminator.utf8Start, n = terminator.utf8CodeUnitCount
        var i = from
        while i + n <= end {
            guard let hit = memchr(buffer + i, Int32(t[n - 1]), end - i - (n - 1) + (n - 1)) else { return nil }
            let j = hit.assumingMemoryBound(to: UInt8.self) - buffer
            if j - (n - 1) >= from, memcmp(buffer + j - (n - 1), t, n) == 0 { return j + 1 }
            i = j + 1
        }
        return nil
    }

    func hasPrefix(_ s: StaticString, at p: Int) -> Bool? {
        let n = s.utf8CodeUnitCount
        guard p + n <= end else { return nil }
        return memcmp(buffer + p, s.utf8Start, n) == 0
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
}
