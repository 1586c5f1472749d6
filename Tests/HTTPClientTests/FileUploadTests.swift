import Foundation
import HTTPClient
import Testing

@Suite struct FileUploadTests {
    @Test func aBodyFileIsSentWholeAsItIsRead() throws {
        let server = try TestServer()
        defer { server.stop() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var request = HTTPClientRequest(method: .post, url: server.url("/echo"), headers: ["Content-Type": "application/zip"])
        request.bodyFile = path
        let response = try testClient().send(request)
        #expect(response.headers["X-Echo-Content-Type"] == "application/zip")
        #expect(response.body == bytes)
    }

    @Test func aMissingBodyFileFailsBeforeAnythingIsSent() throws {
        let server = try TestServer()
        defer { server.stop() }
        var request = HTTPClientRequest(method: .post, url: server.url("/echo"))
        request.bodyFile = "/nonexistent/export.zip"
        #expect(throws: HTTPClientError.self) { try testClient().send(request) }
    }
}
