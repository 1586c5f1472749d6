import CMicroHTTPD
import HTTPTypes

/// Handing a response to libmicrohttpd: checked first (a status or header MHD would refuse
/// becomes a 500), copied into an MHD response with the request ID, and queued.
extension ServerCore {
    /// Hands `response` to MHD. `.RESPMEM_MUST_COPY`: MHD copies the bytes, so the Swift
    /// array may go away when we return.
    func queue(_ response: HTTPResponse, on connection: OpaquePointer,
                       for context: ConnectionState) -> MHD_Result {
        context.phase = .responded
        // The handler is done with a spooled body once it answered: removed before the answer
        // goes out, so a client that reads the answer finds it gone.
        context.spoolFile?.remove()
        context.spoolFile = nil
        let checked = validated(response)
        guard let mhdResponse = makeMHDResponse(checked, requestID: context.requestID) else {
            return .NO  // out of memory in MHD: dropping the connection is all that is left
        }
        defer { MHD_destroy_response(mhdResponse) }  // MHD keeps its own reference once queued
        context.status = checked.status
        context.responseBodyBytes = checked.body.count
        return MHD_queue_response(connection, UInt32(checked.status.rawValue), mhdResponse)
    }

    /// Replaces a response MHD would refuse with a 500, so the client gets a clear answer and
    /// the operator a diagnostic instead of a dropped connection.
    private func validated(_ response: HTTPResponse) -> HTTPResponse {
        var problem: String?
        if !response.status.isValid {
            problem = "handler returned status \(response.status), outside 100-599"
        } else if let bad = response.headers.first(where: { !Self.isSendable($0) }) {
            problem = "handler returned an invalid header field \"\(bad.name)\""
        }
        guard let problem else { return response }
        diagnostics?(problem)
        return .jsonError(.internalServerError, code: "internal",
                          message: "The server could not produce a valid response.")
    }

    private func makeMHDResponse(_ response: HTTPResponse, requestID: String) -> OpaquePointer? {
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
        guard let created else { return nil }
        for field in response.headers where !HTTPHeaders.namesMatch(field.name, "Content-Length") {
            _ = MHD_add_response_header(created, field.name, field.value)
        }
        if !response.headers.contains("X-Request-Id") {
            _ = MHD_add_response_header(created, "X-Request-Id", requestID)
        }
        if isStopping.load(ordering: .relaxed) {
            // MHD closes the connection after a response carrying "Connection: close".
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        return created
    }

    /// What MHD_add_response_header accepts: a token name and a value without CR, LF or NUL
    /// (header injection). Checked up front so a refusal cannot silently drop a header.
    private static func isSendable(_ field: HTTPHeaders.Field) -> Bool {
        let tokenExtras = Array("!#$%&'*+-.^_`|~".utf8)
        let nameOK = !field.name.isEmpty && field.name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
                || tokenExtras.contains(byte)
        }
        let valueOK = field.value.utf8.allSatisfy { $0 != 0x0D && $0 != 0x0A && $0 != 0 }
        return nameOK && valueOK
    }
}
