import HTJSON
import HTTPServer
import HyponaTrackCore

extension Routes {
    /// The patient app's API (product.md, "Patient API").
    static func patient(_ service: StudyService, _ activation: ActivationService) -> [Route] {
        Routes.activation(activation) + [
            Route(.put, "/v1/me/days/{date}", access: .patient, summary: "Merge a day's measurements and get its traffic light",
                  request: S.ref("DayPatch"),
                  responses: [200: ("stored durably and evaluated", S.ref("DayResult")), 400: ("invalid field", S.error),
                              401: ("token missing, revoked or withdrawn", S.error), 403: ("not a patient token", S.error)]) { ctx in
                guard case .patient(let id, _)? = ctx.principal else { throw APIError.unauthenticated }
                return .json(200, try service.submitDay(patientId: id, date: ctx.parameter("date"), body: ctx.body, language: ctx.language))
            },
            Route(.get, "/v1/me/days", access: .patient, summary: "The patient's stored days with their evaluations",
                  responses: [200: ("days", S.array(S.ref("StoredDay"))), 400: ("invalid query", S.error),
                              401: ("token missing or revoked", S.error), 403: ("not a patient token", S.error)]) { ctx in
                guard case .patient(let id, _)? = ctx.principal else { throw APIError.unauthenticated }
                return .json(200, try service.days(patientId: id, from: ctx.query("from"), to: ctx.query("to")))
            },
            Route(.get, "/v1/me/today", access: .patient, summary: "Today's tasks, level and reminder plan",
                  responses: [200: ("today", S.ref("Today")), 401: ("token missing or revoked", S.error),
                              403: ("not a patient token", S.error)]) { ctx in
                guard case .patient(let id, _)? = ctx.principal else { throw APIError.unauthenticated }
                return .json(200, try service.today(patientId: id, language: ctx.language))
            },
        ]
    }
}

/// The API's route list, assembled from its parts.
public enum Routes {}
