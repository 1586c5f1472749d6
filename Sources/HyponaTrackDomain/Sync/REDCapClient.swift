import HTJSON
import HTTPClient

/// The REDCap API over our libcurl client: form-encoded POSTs to the one endpoint, always
/// `format=json&returnFormat=json&type=flat`, the token in the body (never in a URL or a log).
struct REDCapClient: Sendable {
    let url: String
    let token: String
    let http: HTTPClient
    let pacer: RequestPacer

    init(url: String, token: String, caFile: String?, pacer: RequestPacer) {
        self.url = url
        self.token = token
        self.pacer = pacer
        http = HTTPClient(configuration: HTTPClientConfiguration(caFile: caFile, userAgent: "HyponaTrack-sync",
                                                                 timeout: .seconds(60), connectTimeout: .seconds(15)))
    }

    /// `content=record` import with `overwriteBehavior=overwrite` (blanks clear: REDCap mirrors
    /// the server), never auto-numbering.
    func importRecords(_ dataJSON: String) -> REDCapOutcome {
        send([("content", "record"), ("action", "import"), ("format", "json"), ("type", "flat"),
              ("overwriteBehavior", "overwrite"), ("forceAutoNumber", "false"), ("returnContent", "count"),
              ("returnFormat", "json"), ("data", dataJSON)]).outcome
    }

    /// A read endpoint (`version`, `project`, `metadata`, record export): the body on 200.
    func read(_ fields: [(String, String)]) -> Result<[UInt8], REDCapError> {
        let (outcome, response) = send(fields + [("format", "json"), ("returnFormat", "json")])
        if let response, response.status == 200 { return .success(response.body) }
        switch outcome {
        case .halt(let f), .transient(let f), .rejected(let f): return .failure(REDCapError(message: f.message))
        case .imported: return .failure(REDCapError(message: "unexpected answer"))
        }
    }

    private func send(_ fields: [(String, String)]) -> (outcome: REDCapOutcome, response: HTTPClientResponse?) {
        let stamp = pacer.acquire()
        defer { pacer.finished(stamp) }
        do {
            let response = try http.send(.formURLEncoded(url: url, fields: [("token", token)] + fields))
            return (REDCapOutcome.classify(status: response.status, body: response.body), response)
        } catch {
            return (REDCapOutcome.classify(error), nil)
        }
    }
}

struct REDCapError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
