import HTTPServer
import Testing

@Suite struct MessageTypeTests {
    @Test func headerLookupIgnoresCaseAndKeepsRepeats() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "Set-Cookie": "a=1"]
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        headers.replaceOrAdd(name: "Set-Cookie", value: "c=3")
        #expect(headers.values(for: "set-cookie") == ["c=3"])
        #expect(headers["X-Missing"] == nil)
    }

    @Test func mediaTypeIsTheContentTypeWithoutParametersLowercased() {
        func type(_ value: String?) -> String? {
            var headers = HTTPHeaders()
            if let value { headers.add(name: "Content-Type", value: value) }
            return headers.mediaType
        }
        #expect(type("Application/JSON; charset=utf-8") == "application/json")
        #expect(type(" \tapplication/x-www-form-urlencoded ") == "application/x-www-form-urlencoded")
        #expect(type("text/csv;") == "text/csv")
        #expect(type("  ; charset=utf-8") == nil)
        #expect(type("") == nil)
        #expect(type(nil) == nil)
    }

    @Test func jsonErrorEnvelopeEscapesStrings() {
        let response = HTTPResponse.jsonError(.badRequest, code: "invalid", message: "say \"hi\"\n\\", field: "a\u{1}")
        #expect(response.status == .badRequest)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.bodyText
                == #"{"error":{"code":"invalid","message":"say \"hi\"\n\\","field":"a\u0001"}}"#)
    }

    @Test func jsonErrorWithoutFieldWritesNull() {
        #expect(HTTPResponse.jsonError(.notFound, code: "not_found", message: "No such patient.").bodyText
                == #"{"error":{"code":"not_found","message":"No such patient.","field":null}}"#)
    }
}
