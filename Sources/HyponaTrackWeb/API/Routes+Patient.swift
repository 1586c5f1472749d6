import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

extension Routes {
    /// The patient app's API (docs/product.md, "Patient API").
    static func patient(_ service: StudyService, _ activation: ActivationService, anonymousLimit: AnonymousLimit? = nil) -> [Route] {
        Routes.activation(activation, limit: anonymousLimit) + [
            Route(.put, "/v1/me/days/{date}", access: .patient, touches: .ownRecord, summary: "Merge a day's measurements and get its traffic light",
                  request: S.ref("DayPatch"),
                  responses: [200: ("stored durably and evaluated", DayJSON.result.reference), 400: ("invalid field", S.error),
                              401: ("token missing, revoked or withdrawn", S.error), 403: ("not a patient token", S.error),
                              409: ("limit_reached: a list would pass limits.itemsPerList; nothing stored", S.error)],
                  runsOnPollingThread: true) { ctx in
                let id = try ctx.patientId()
                let date = try PathParameters.date(ctx, "date")
                let patch: DayPatch
                do throws(FieldError) {
                    patch = try DayPatchDecoder.decode(ctx.body, date: date, rules: service.rules.snapshot.rules)
                } catch { throw APIError.from(error) }
                let language = ctx.language
                // Answered from the COMMIT: no thread waits for it. The day cache is refreshed
                // after it, on the thread that sends the answer (`CommittedSubmission.result`).
                return .later(DeferredAnswer(start: { committed in
                    service.days.submit(SubmitDay(patientId: id, date: date, patch: patch), completion: committed)
                }, answer: { committed in
                    // A yellow answer says when the clinic will call, as the web check-in does (only then is the clock read).
                    let result = try committed.result()
                    // The patient's site's ladder, zone and emergency number (else the study's), as the web check-in shows them.
                    let site = try service.sites.site(id: result.siteId)
                    let call = result.evaluation.level == .yellow ? service.configuration.clinicCall(atEpochSeconds: service.clock.now(), site: site) : nil
                    let numbers = SiteService.numbers(site, app: service.configuration.app)
                    return .json(.ok, DayJSON.result.encode(DayAnswer(result, language: language, emergencyNumber: numbers.emergencyNumber,
                                                                      call: call)))
                }))
            },
            Route(.get, "/v1/me/days", access: .patient, touches: .ownRecord, summary: "The patient's stored days with their evaluations",
                  responses: [200: ("days", S.array(DayJSON.storedDay.reference)), 400: ("invalid query", S.error),
                              401: ("token missing or revoked", S.error), 403: ("not a patient token", S.error)]) { ctx in
                let query = DaysQuery(patientId: try ctx.patientId(), from: try PathParameters.queryDate(ctx, "from"),
                                      to: try PathParameters.queryDate(ctx, "to"))
                return .json(.ok, .array(try service.days.days(query).map(DayJSON.storedDay.encode)))
            },
            Route(.get, "/v1/me/today", access: .patient, touches: .ownRecord, summary: "Today's tasks, level and reminder plan",
                  responses: [200: ("today", DayJSON.today.reference), 401: ("token missing or revoked", S.error),
                              403: ("not a patient token", S.error)]) { ctx in
                let today = try service.days.today(patientId: try ctx.patientId())
                let site = try service.sites.site(id: today.siteId)
                let numbers = SiteService.numbers(site, app: service.configuration.app)
                return .json(.ok, DayJSON.today.encode(TodayAnswer(today, language: ctx.language, emergencyNumber: numbers.emergencyNumber,
                                                                   call: service.configuration.clinicCall(atEpochSeconds: service.clock.now(), site: site))))
            },
        ]
    }
}

/// The API's route list, assembled from its parts.
public enum Routes {}

extension RequestContext {
    /// The patient behind a patient token (routes with `.patient` access always have one).
    func patientId() throws -> Int64 {
        guard case .patient(let id, _)? = principal else { throw APIError.unauthenticated }
        return id
    }
}

/// Path and query parameters read the same way on every route.
enum PathParameters {
    /// A `YYYY-MM-DD` path parameter.
    static func date(_ ctx: RequestContext, _ name: String) throws -> LocalDate {
        let text = ctx.parameter(name)
        guard let d = LocalDate(text) else { throw APIError.invalid(name, "\"\(text.prefix(40))\" is not a date YYYY-MM-DD") }
        return d
    }

    /// An optional `YYYY-MM-DD` query parameter.
    static func queryDate(_ ctx: RequestContext, _ name: String) throws -> LocalDate? {
        guard let text = ctx.query(name) else { return nil }
        guard let d = LocalDate(text) else { throw APIError.invalid(name, "\"\(text.prefix(40))\" is not a date YYYY-MM-DD") }
        return d
    }
}
