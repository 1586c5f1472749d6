#if canImport(Glibc)
import Glibc
#endif

extension XMLScanner {
    /// One piece of markup starting with `<` at `p`: `.needMore` when it is not complete in the buffer.
    func markup(at p: Int, _ handler: Handler) throws(ImportFileError) -> Step {
        guard p + 1 < end else { return .needMore }
        switch buffer[p + 1] {
        case UInt8(ascii: "/"): return try endTag(at: p)
        case UInt8(ascii: "?"): return find("?>", from: p + 2).map(Step.next) ?? .needMore
        case UInt8(ascii: "!"):
            guard let comment = hasPrefix("<!--", at: p), let cdata = hasPrefix("<![CDATA[", at: p),
                  let doctype = hasPrefix("<!DOCTYPE", at: p) else { return .needMore }
            if comment { return find("-->", from: p + 4).map(Step.next) ?? .needMore }
            if cdata {
                guard !nameEnds.isEmpty else { throw error(p, "CDATA outside the root element") }
                return find("]]>", from: p + 9).map(Step.next) ?? .needMore
            }
            if doctype {
                guard !sawRoot else { throw error(p, "a DOCTYPE after the root element started") }
                return doctypeEnd(from: p + 9).map(Step.next) ?? .needMore
            }
            throw error(p, "unknown markup <!")
        default:
            let step = try startTag(at: p, handler)
            if case .needMore = step, end - p > Self.maxStartTagBytes {
                throw error(p, "a start tag longer than \(Self.maxStartTagBytes >> 20) MiB")
            }
            return step
        }
    }

    /// `<!DOCTYPE …>` with an internal subset `[…]` that holds quoted strings and its own markup.
    func doctypeEnd(from start: Int) -> Int? {
        var i = start, depth = 0
        var quote: UInt8 = 0
        while i < end {
            let b = buffer[i]
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "[") {
                depth += 1
            } else if b == UInt8(ascii: "]") {
                depth -= 1
            } else if b == UInt8(ascii: ">"), depth <= 0 {
                return i + 1
            }
            i += 1
        }
        return nil
    }

    func endTag(at p: Int) throws(ImportFileError) -> Step {
        guard let gt = memchr(buffer + p + 2, Int32(UInt8(ascii: ">")), end - p - 2) else { return .needMore }
        let close = gt.assumingMemoryBound(to: UInt8.self) - buffer
        var nameEnd = close
        while nameEnd > p + 2, Self.isSpace(buffer[nameEnd - 1]) { nameEnd -= 1 }
        let length = nameEnd - (p + 2)
        guard let top = nameEnds.last else { throw error(p, "a closing tag with no element open") }
        let start = topStart
        guard top - start == length, names.withUnsafeBufferPointer({ memcmp($0.baseAddress! + start, buffer + p + 2, length) }) == 0 else {
            let open = String(decoding: names[start..<top], as: UTF8.self)
            throw error(p, "</\(String(decoding: UnsafeBufferPointer(start: buffer + p + 2, count: min(length, 80)), as: UTF8.self))> does not close <\(open)>")
        }
        names.removeLast(length)
        nameEnds.removeLast()
        return .next(close + 1)
    }

    func startTag(at p: Int, _ handler: Handler) throws(ImportFileError) -> Step {
        var i = p + 1
        let nameStart = i
        while i < end {
            let b = buffer[i]
            if Self.isSpace(b) || b == UInt8(ascii: "/") || b == UInt8(ascii: ">") { break }
            if b == UInt8(ascii: "<") || b == UInt8(ascii: "=") || b == UInt8(ascii: "\"") { throw error(p, "a malformed tag name") }
            i += 1
        }
        guard i < end else { return .needMore }
        let nameEnd = i
        guard nameEnd > nameStart else { throw error(p, "a tag without a name") }
        guard nameEnd - nameStart <= Self.maxNameBytes else { throw error(p, "a tag name longer than \(Self.maxNameBytes) bytes") }
        var count = 0
        var selfClosing = false
        while true {
            while i < end, Self.isSpace(buffer[i]) { i += 1 }
            guard i < end else { return .needMore }
            let b = buffer[i]
            if b == UInt8(ascii: ">") { i += 1; break }
            if b == UInt8(ascii: "/") {
                guard i + 1 < end else { return .needMore }
                guard buffer[i + 1] == UInt8(ascii: ">") else { throw error(i, "'/' not followed by '>'") }
                selfClosing = true
                i += 2
                break
            }
            // An attribute: name, optional spaces, '=', optional spaces, a quoted value.
            let aStart = i
            while i < end, buffer[i] != UInt8(ascii: "="), !Self.isSpace(buffer[i]) {
                let c = buffer[i]
                if c == UInt8(ascii: ">") || c == UInt8(ascii: "<") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    throw error(i, "an attribute without a value")
                }
                i += 1
            }
            let aEnd = i
            while i < end, Self.isSpace(buffer[i]) { i += 1 }
            guard i < end else { return .needMore }
            guard buffer[i] == UInt8(ascii: "=") else { throw error(i, "an attribute without '='") }
            i += 1
            while i < end, Self.isSpace(buffer[i]) { i += 1 }
            guard i < end else { return .needMore }
            let quote = buffer[i]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw error(i, "an attribute value without quotes") }
            guard let q = memchr(buffer + i + 1, Int32(quote), end - i - 1) else { return .needMore }
            let vEnd = q.assumingMemoryBound(to: UInt8.self) - buffer
            guard count < Self.maxAttributes else { throw error(p, "a tag with more than \(Self.maxAttributes) attributes") }
            if count == spanCapacity {
                let bigger = UnsafeMutablePointer<(Int, Int, Int, Int)>.allocate(capacity: spanCapacity * 2)
                bigger.update(from: spans, count: count)
                spans.deallocate()
                spans = bigger
                spanCapacity *= 2
            }
            spans[count] = (aStart, aEnd, i + 1, vEnd)
            count += 1
            i = vEnd + 1
            guard i < end else { return .needMore }
            let after = buffer[i]
            guard Self.isSpace(after) || after == UInt8(ascii: "/") || after == UInt8(ascii: ">") else {
                throw error(i, "attributes must be separated by spaces")
            }
        }
        if nameEnds.isEmpty {
            guard !sawRoot else { throw error(p, "a second root element") }
            sawRoot = true
        }
        try handler(XMLStartTag(base: UnsafePointer(buffer), nameStart: nameStart, nameEnd: nameEnd,
                                spans: UnsafeBufferPointer(start: spans, count: count), offset: consumed + p))
        if !selfClosing {
            guard nameEnds.count < Self.maxDepth else { throw error(p, "elements nested deeper than \(Self.maxDepth)") }
            names.append(contentsOf: UnsafeBufferPointer(start: buffer + nameStart, count: nameEnd - nameStart))
            nameEnds.append(names.count)
        }
        return .next(i)
    }
}
