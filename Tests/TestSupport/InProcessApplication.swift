import Foundation
import HTJSON
import HTTPServer
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The application driven in-process: request in, response out, no socket bound at all (the
/// application value, not the daemon), over a fresh data directory with the shipped rules.
/// Tests use it beside the real-HTTP integration tests (which run the built binaries), never
/// instead of them.
final class InProcessApplication {
    let directory: URL
    let app: Application
    let client: InProcessHTTPClient
    let adminToken: String

    init(clock: any ServerClock = SystemClock(), configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ht-inproc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config")
        var configuration = ServerConfiguration(baseDirectory: rules, dataDirectory: directory.appendingPathComponent("data"))
        configure(&configuration)
        let app = try Application(configuration: configuration, logger: Logger(minimum: .error, capture: { _ in }), clock: clock)
        self.app = app
        // The one router: the API and both page families, as the daemon serves them.
        client = InProcessHTTPClient { request, responder in app.handle(request, responder) }
        adminToken = try String(contentsOf: directory.appendingPathComponent("data/admin.token"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        app.close()
        try? FileManager.default.removeItem(at: directory)
    }

    func send(_ method: HTTPMethod, _ target: String, body: JSONValue? = nil, token: String? = nil) -> (status: Int, json: JSONValue) {
        var headers: HTTPHeaders = ["Authorization": "Bearer \(token ?? adminToken)"]
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        let response = client.send(method, target, headers: headers, body: body.map { JSONSerializer.string($0) })
        return (response.status.rawValue, (try? JSONParser.parse(response.body)) ?? .null)
    }

    /// The console's pages, driven in-process like the API.
    var console: InProcessHTTPClient { client }

    /// Gives the bootstrap admin a password and signs them in to the console; the headers that
    /// carry the session (add `Accept-Language` for a language).
    func consoleSession() throws -> HTTPHeaders {
        let name = StaffDirectory.bootstrapAdminName, password = "a long enough password"
        guard send(.put, "/v1/staff/\(name)/password", body: ["password": .string(password)]).status == 204 else {
            throw TestError("the admin's password was not set")
        }
        // The form first, as a browser: its pre-session cookie and the token the post must carry.
        let form = console.send(.get, "/console/login")
        guard let formCookie = form.headers["set-cookie"]?.split(separator: ";").first,
              let html = form.bodyText, let mark = html.range(of: "name=\"csrf\" value=\"") else {
            throw TestError("sign-in form: \(form.status) \(form.headers)")
        }
        let token = html[mark.upperBound...].prefix { $0 != "\"" }
        let signedIn = console.send(.post, "/console/login", headers: ["Content-Type": "application/x-www-form-urlencoded",
                                                                       "Cookie": String(formCookie)],
                                    body: "name=\(name)&password=\(password.replacingOccurrences(of: " ", with: "+"))&csrf=\(token)")
        guard signedIn.status == .seeOther, let cookie = signedIn.headers["set-cookie"]?.split(separator: ";").first else {
            throw TestError("sign-in: \(signedIn.status) \(signedIn.headers)")
        }
        return ["Cookie": String(cookie)]
    }

    /// Enrols a Berlin patient operated on `surgeryDate` and activates them; the patient token.
    func enrollAndActivate(_ studyId: String, surgeryDate: String) throws -> String {
        let enrolled = send(.post, "/v1/patients", body: [
            "studyId": .string(studyId), "surgeryDate": .string(surgeryDate), "timeZone": "Europe/Berlin", "age": 50,
            "sex": "male", "bmi": 27.0, "baselineWeightKg": 80.0,
        ])
        guard case .object(let e) = enrolled.json, case .string(let code)? = e["activationCode"] else {
            throw TestError("enrolment failed: \(enrolled.json)")
        }
        let activated = send(.post, "/v1/activate", body: ["studyId": .string(studyId), "code": .string(code)], token: "-")
        guard case .object(let a) = activated.json, case .string(let token)? = a["token"] else {
            throw TestError("activation failed: \(activated.json)")
        }
        return token
    }
}
