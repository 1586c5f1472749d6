import Foundation
import HTJSON

/// An enrolled and activated benchmark patient: what a client needs to submit days.
struct PatientSession: Sendable {
    let studyId: String
    let token: String
}

/// Enrolls patients through the staff API (`POST /v1/patients`, admin token) and activates each
/// through the patient API (`POST /v1/activate`), as a nurse and the app would.
enum Enrollment {
    /// `count` patients whose surgery was on `surgeryDate`, study IDs `B0001`, `B0002`, …
    static func enroll(count: Int, surgeryDate: String, port: UInt16, adminToken: String) throws -> [PatientSession] {
        let connection = try HTTPConnection(port: port)
        var sessions: [PatientSession] = []
        for i in 1...count {
            let studyId = String(format: "B%04d", i)
            let profile: JSONValue = [
                "studyId": .string(studyId), "surgeryDate": .string(surgeryDate), "timeZone": "Europe/Berlin",
                "age": 50, "sex": "male", "bmi": 27, "baselineWeightKg": 80, "fluidLimitMl": 1500,
                "baselineReactionTimeMs": 600,
            ]
            let enrolled = try post(connection, "/v1/patients", profile, token: adminToken, expect: 201)
            guard case .string(let code)? = enrolled["activationCode"] else {
                throw BenchError("enroll \(studyId): no activationCode in the response")
            }
            let activated = try post(connection, "/v1/activate", ["studyId": .string(studyId), "code": .string(code)],
                                     token: nil, expect: 200)
            guard case .string(let token)? = activated["token"] else { throw BenchError("activate \(studyId): no token") }
            sessions.append(PatientSession(studyId: studyId, token: token))
        }
        return sessions
    }

    private static func post(_ connection: HTTPConnection, _ path: String, _ body: JSONValue, token: String?,
                             expect: Int) throws -> JSONObject {
        var headers = [("Content-Type", "application/json")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let reply = try connection.request("POST", path, headers: headers, body: JSONSerializer.bytes(body))
        guard reply.status == expect else {
            throw BenchError("POST \(path): status \(reply.status), expected \(expect): \(String(decoding: reply.body, as: UTF8.self))")
        }
        guard case .object(let object) = try JSONParser.parse(reply.body) else {
            throw BenchError("POST \(path): the response is not a JSON object")
        }
        return object
    }
}

/// Calendar dates (`YYYY-MM-DD`) counted in UTC days from today.
enum StudyDates {
    /// The UTC date `offset` days from today (negative: in the past). Europe/Berlin is never
    /// behind UTC, so a UTC date before today is never "in the future" for the daemon.
    static func utc(daysFromToday offset: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date(timeIntervalSinceNow: Double(offset) * 86_400))
    }
}
