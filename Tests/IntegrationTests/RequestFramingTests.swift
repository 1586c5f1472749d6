import Foundation
import Testing

/// Requests whose body framing is ambiguous (request smuggling) or unsupported are refused
/// when their headers arrive, and their connection is closed, so bytes a proxy would frame
/// otherwise are never read as a next request (RFC 9112 §6.1, §6.3; ``RequestFraming``).
@Suite(.serialized) struct RequestFramingTests {
    static let pipelined = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Sends `request` followed by a pipelined `GET /healthz` and returns all the daemon sent
    /// before closing the connection (failing if it kept it open).
    static func exchange(_ d: TestDaemon, _ request: String) throws -> String {
        let s = try RawSocket(port: d.port)
        s.send(request + pipelined)
        let (text, closed) = s.receive(untilClosedWithinMilliseconds: 3000)
        #expect(closed, "the connection was kept open after: \(text.prefix(200))")
        return text
    }

    static func post(_ headers: String, body: String) -> String {
        "POST /v1/activate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\(headers)\r\n\(body)"
    }

    @Test func conflictingContentLengthsAre400AndTheConnectionIsClosedUnanswered() throws {
        let d = try TestDaemon()
        let text = try Self.exchange(d, Self.post("Content-Length: 7\r\nContent-Length: 60\r\n", body: #"{"a":1}"#))
        #expect(text.hasPrefix("HTTP/1.1 400"), "\(text.prefix(200))")
        #expect(text.contains(#""code":"invalid_value""#))
        #expect(text.lowercased().contains("connection: close"))
        // The pipelined request after the first 7 bytes was not answered.
        #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "\(text)")
    }

    @Test func contentLengthWithChunkedIs400AndTheConnectionIsClosedUnanswered() throws {
        let d = try TestDaemon()
        let text = try Self.exchange(d, Self.post("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", body: "0\r\n\r\n"))
        #expect(text.hasPrefix("HTTP/1.1 400"), "\(text.prefix(200))")
        #expect(text.lowercased().contains("connection: close"))
        #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "\(text)")
    }

    @Test func anUnsupportedTransferCodingIsAnsweredAtOnceAndClosed() throws {
        let d = try TestDaemon()
        // libmicrohttpd alone reads such a body until the connection closes: no answer until
        // the body deadline (30 s); the exchange allows 3 s.
        let gzip = try Self.exchange(d, Self.post("Transfer-Encoding: gzip, chunked\r\n", body: "0\r\n\r\n"))
        #expect(gzip.hasPrefix("HTTP/1.1 501"), "\(gzip.prefix(200))")
        #expect(gzip.contains(#""code":"not_implemented""#))
        let identity = try Self.exchange(d, Self.post("Transfer-Encoding: identity\r\n", body: "{}"))
        #expect(identity.hasPrefix("HTTP/1.1 400"), "\(identity.prefix(200))")
        #expect(identity.components(separatedBy: "HTTP/1.1 ").count == 2, "\(identity)")
    }

    @Test func plainChunkedAndRepeatedEqualLengthsStillWork() throws {
        let d = try TestDaemon()
        // Framed as the daemon frames it: both requests answered on one kept-alive connection.
        let s = try RawSocket(port: d.port)
        s.send(Self.post("Transfer-Encoding: chunked\r\n", body: "2\r\n{}\r\n0\r\n\r\n")
               + Self.post("Content-Length: 2\r\nContent-Length: 2\r\n", body: "{}"))
        let (text, closed) = s.receive(untilClosedWithinMilliseconds: 3000) { $0.components(separatedBy: #""field":"#).count == 3 }
        #expect(!closed)
        // /v1/activate refuses `{}` for its missing fields: two JSON answers, not a framing error.
        #expect(text.components(separatedBy: "HTTP/1.1 400").count == 3, "\(text)")
        #expect(!text.contains("Transfer-Encoding must") && !text.contains("conflicting Content-Length"))
    }

    @Test func anHTTP11RequestWithoutHostIs400AndClosed() throws {
        let d = try TestDaemon()
        let text = try Self.exchange(d, "GET /healthz HTTP/1.1\r\n\r\n")
        #expect(text.hasPrefix("HTTP/1.1 400"), "\(text.prefix(200))")
        #expect(text.contains("Host header"))
        #expect(!text.contains("HTTP/1.1 200"), "the pipelined request was answered: \(text)")
    }

    @Test func twoAuthorizationHeadersAre400NotTheFirstBelieved() throws {
        let d = try TestDaemon()
        let text = try Self.exchange(d, "GET /v1/patients HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(d.adminToken)\r\n"
                                        + "Authorization: Bearer nonsense\r\n\r\n")
        #expect(text.hasPrefix("HTTP/1.1 400"), "\(text.prefix(200))")
        #expect(text.contains("more than one Authorization"))
    }

    @Test func headIsAnsweredLikeGetWithoutTheBody() throws {
        let d = try TestDaemon()
        let s = try RawSocket(port: d.port)
        s.send("HEAD /v1/patients HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(d.adminToken)\r\n\r\n" + Self.pipelined)
        let (text, _) = s.receive(untilClosedWithinMilliseconds: 3000) { $0.components(separatedBy: "HTTP/1.1 200").count == 3 }
        let answers = text.components(separatedBy: "HTTP/1.1 ")
        #expect(answers.count == 3, "\(text)")
        guard answers.count == 3 else { return }
        // The HEAD answer says how long the body would be and sends none: the next bytes are
        // the pipelined request's answer.
        let head = answers[1]
        #expect(head.hasPrefix("200"))
        #expect(head.lowercased().contains("content-length: ") && !head.lowercased().contains("content-length: 0\r"), "\(head)")
        #expect(head.hasSuffix("\r\n\r\n"), "\(head)")
        #expect(answers[2].hasPrefix("200"))
    }
}
