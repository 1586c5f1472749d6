/// A path with `{name}` placeholders (`/v1/patients/{studyId}`), matched segment by segment.
/// The API's routes and the pages' routes both match through it.
public struct PathTemplate: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    public let text: String
    let segments: [Segment]

    public init(_ text: String) {
        self.text = text
        var segments: [Segment] = text.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        // `/console/` is not `/console`: a trailing slash is an empty last segment.
        if text.count > 1 && text.hasSuffix("/") { segments.append(.literal("")) }
        self.segments = segments
    }

    /// How many segments a path must have to fit.
    public var segmentCount: Int { segments.count }

    public var parameterNames: [String] {
        segments.compactMap { if case .parameter(let n) = $0 { return n } else { return nil } }
    }

    /// The parameters when `path` fits (a placeholder matches one non-empty segment).
    public func match(_ path: String) -> [String: String]? { match(Segments(path)) }

    /// The same for a path split once (a router tries many templates against one request).
    public func match(_ path: Segments) -> [String: String]? {
        guard path.parts.count == segments.count else { return nil }
        var params: [String: String] = [:]
        for (part, segment) in zip(path.parts, segments) {
            switch segment {
            case .literal(let l): guard part == l else { return nil }
            case .parameter(let n):
                guard !part.isEmpty else { return nil }
                params[n] = String(part)
            }
        }
        return params
    }

    /// A request path split at its slashes (the leading empty segment dropped).
    public struct Segments: Sendable {
        let parts: ArraySlice<Substring>
        public var count: Int { parts.count }

        public init(_ path: String) {
            // Split on the UTF-8 bytes: `split` on the String walks Characters (grapheme
            // breaking), which cost more than all the route matching. "/" is ASCII, so every
            // index found is a valid String index.
            var parts: [Substring] = []
            let utf8 = path.utf8
            var start = utf8.startIndex
            var index = start
            while index != utf8.endIndex {
                if utf8[index] == UInt8(ascii: "/") {
                    parts.append(path[start..<index])
                    start = utf8.index(after: index)
                }
                index = utf8.index(after: index)
            }
            parts.append(path[start..<utf8.endIndex])
            self.parts = parts.dropFirst()
        }
    }
}
