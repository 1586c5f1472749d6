import Testing
@testable import HTTPServer

/// Which header combinations frame a body unambiguously (``RequestFraming``).
@Suite struct RequestFramingTests {
    static func status(_ fields: [(String, String)]) -> Int? {
        RequestFraming.problem(in: HTTPHeaders([(name: "Host", value: "t")] + fields.map { (name: $0.0, value: $0.1) }), httpVersion: "HTTP/1.1")?.status.rawValue
    }

    @Test func oneLengthRepeatsOfItOrPlainChunkedAreFine() {
        #expect(Self.status([]) == nil)
        #expect(Self.status([("Content-Length", "7")]) == nil)
        #expect(Self.status([("Content-Length", "7"), ("content-length", "7")]) == nil)
        #expect(Self.status([("Transfer-Encoding", "chunked")]) == nil)
        #expect(Self.status([("Transfer-Encoding", "Chunked")]) == nil)
    }

    @Test func conflictingLengthsOrALengthWithATransferEncodingAre400() {
        #expect(Self.status([("Content-Length", "7"), ("Content-Length", "60")]) == 400)
        #expect(Self.status([("Content-Length", "7"), ("Content-Length", "7, 60")]) == 400)
        #expect(Self.status([("Content-Length", "7, 60")]) == 400)
        #expect(Self.status([("Content-Length", "7, 7")]) == nil)
        #expect(Self.status([("Content-Length", "5"), ("Transfer-Encoding", "chunked")]) == 400)
        #expect(Self.status([("Transfer-Encoding", "chunked"), ("Content-Length", "5")]) == 400)
    }

    @Test func chunkedNotLastTwiceOrSpelledOtherwiseIs400AnotherCodingBeforeItIs501() {
        #expect(Self.status([("Transfer-Encoding", "identity")]) == 400)
        #expect(Self.status([("Transfer-Encoding", "chunked, gzip")]) == 400)
        #expect(Self.status([("Transfer-Encoding", "chunked, chunked")]) == 400)
        #expect(Self.status([("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")]) == 400)
        #expect(Self.status([("Transfer-Encoding", "chunked,")]) == 400)  // libmicrohttpd would not decode it
        #expect(Self.status([("Transfer-Encoding", "")]) == 400)
        #expect(Self.status([("Transfer-Encoding", "gzip, chunked")]) == 501)
        #expect(Self.status([("Transfer-Encoding", "gzip"), ("Transfer-Encoding", "chunked")]) == 501)
    }

    static func status(_ fields: [(String, String)], version: String) -> Int? {
        RequestFraming.problem(in: HTTPHeaders(fields.map { (name: $0.0, value: $0.1) }), httpVersion: version)?.status.rawValue
    }

    @Test func anHTTP11RequestWithoutHostOrAnyRequestWithTwoHostsIs400() {
        #expect(Self.status([], version: "HTTP/1.1") == 400)
        #expect(Self.status([("Host", "a"), ("host", "a")], version: "HTTP/1.1") == 400)
        #expect(Self.status([("Host", "a"), ("Host", "b")], version: "HTTP/1.0") == 400)
        #expect(Self.status([], version: "HTTP/1.0") == nil)  // Host came with HTTP/1.1
        #expect(Self.status([("Host", "a")], version: "HTTP/1.1") == nil)
    }

    @Test func twoAuthorizationFieldsAre400() {
        #expect(Self.status([("Host", "a"), ("Authorization", "Bearer x"), ("authorization", "Bearer y")], version: "HTTP/1.1") == 400)
        #expect(Self.status([("Host", "a"), ("Authorization", "Bearer x")], version: "HTTP/1.1") == nil)
    }
}
