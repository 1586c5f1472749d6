import CMicroHTTPD

/// Copies a connection's request headers out of libmicrohttpd into Swift values.
enum MHDRequestHeaders {
    /// All `.HEADER_KIND` values in arrival order. The `_n` variant gives lengths, so a
    /// value is never cut at an embedded NUL. Bytes that are not UTF-8 (obsolete Latin-1
    /// header text) are replaced with U+FFFD rather than failing the request.
    static func read(from connection: OpaquePointer) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collect, pointer)
        }
        return HTTPHeaders(fields)
    }

    private static let collect: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let fields = cls.assumingMemoryBound(to: [HTTPHeaders.Field].self)
        let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
        let text = value.map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self)
        } ?? ""
        fields.pointee.append((name: name, value: text))
        return .YES
    }
}
