import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

extension Routes {
    /// `POST /v1/activate`: the patient app's first call, without a token, behind the
    /// per-address bucket of anonymous routes (`limit`).
    static func activation(_ service: ActivationService, limit: AnonymousLimit?) -> [Route] {
        [
            Route(.post, "/v1/activate", access: .anonymous, touches: .ownRecord, limit: limit,
                  summary: "Exchange a one-time activation code for a patient token",
                  request: S.body(ActivationBodies.activation),
                  responses: [200: ("the patient token (shown once)", ActivationJSON.activated.reference), 400: ("invalid request", S.error),
                              401: ("wrong code or study ID", S.error),
                              410: ("the code expired (a nurse reissues), or the patient's access has ended "
                                    + "(tokens.patientDaysAfterMonitoring after monitoring; no code helps)", S.error),
                              429: ("too many wrong codes for this study ID (locked) or refused attempts from this address (rate_limited); see retry-after",
                                    S.error)]) { ctx in
                let command = try decodeBody(ctx.body) { r throws(FieldError) in
                    Activate(studyId: try r.required(ActivationBodies.studyId.required), code: try r.required(ActivationBodies.code.required),
                             clientIP: ctx.clientIP)   // the app's activation leaves webOnly as the nurse or the web set it
                }
                return .json(.ok, ActivationJSON.activated.encode(try service.activate(command)))
            },
        ]
    }
}

/// The activation body's members, declared once for the decoder and the spec.
enum ActivationBodies {
    static let studyId = BodyField.pattern("studyId", "^[A-Za-z0-9_-]{1,64}$", length: 1...64, expected: "a study ID",
                                           ValueRanges.isValidStudyId)
    static let code = BodyField.secret("code", length: 1...64)
    static let activation = [studyId.required.member, code.required.member]
}
