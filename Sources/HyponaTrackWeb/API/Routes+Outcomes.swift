import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

extension Routes {
    /// Outcomes (docs/product.md, third round, O): nurses record them; every staff role reads
    /// them; lab-derived ones are recorded by the server.
    static func outcomes(_ service: StudyService) -> [Route] {
        let with = Responses.adding(to: Responses.staff(notFound: "no such patient"))
        return [
            Route(.post, "/v1/patients/{studyId}/outcomes", access: .staff(.write), touches: .patient,
                  summary: "Record an outcome (hyponatremia, ed_visit, readmission, other) on a date within the patient's monitoring ±30 days",
                  request: S.body(OutcomeBodies.outcome),
                  responses: with([201: ("recorded", OutcomeJSON.outcome.reference)])) { ctx in
                let command = try decodeBody(ctx.body) { r throws(FieldError) in
                    try OutcomeBodies.command(r, studyId: ctx.parameter("studyId"), actor: ctx.actor)
                }
                return .json(.created, OutcomeJSON.outcome.encode(try service.outcomes.add(command)))
            },
            Route(.get, "/v1/patients/{studyId}/outcomes", access: .staff(.read), touches: .patient,
                  summary: "The patient's outcomes by date, staff-recorded and lab-derived, withdrawn ones with their status",
                  responses: with([200: ("outcomes", S.array(OutcomeJSON.outcome.reference))])) { ctx in
                .json(.ok, .array(try service.outcomes.outcomes(studyId: ctx.parameter("studyId")).map(OutcomeJSON.outcome.encode)))
            },
        ]
    }
}

/// The outcome routes' body members, declared once for the decoder, the console's form and the spec.
enum OutcomeBodies {
    static let kind = BodyField.oneOf("kind", OutcomeKind.allCases.map(\.rawValue))
    static let date = BodyField.parsed("date", length: 10...10, schema: S.date, refusal: "not a date YYYY-MM-DD", LocalDate.init)
    static let sodium = BodyField.number("sodium", ValueRanges.sodium)
    static let note = BodyField.text("note", length: 1...1000)
    static let outcome = [kind.required.member, date.required.member, sodium.member, note.member]

    /// The command a body (the API's, or the console form's as `FormInput` makes it) asks for.
    static func command(_ r: ObjectReader, studyId: String, actor: String) throws(FieldError) -> AddOutcome {
        // `oneOf` admitted only the kinds' codes.
        let kind = OutcomeKind(rawValue: try r.required(kind.required)) ?? .other
        return AddOutcome(studyId: studyId, kind: kind, date: try r.required(date.required), sodium: try r.optional(sodium),
                          note: try r.optional(note), actor: actor)
    }
}

/// The API form of an outcome, declared once for the encoder and `/openapi.json`.
enum OutcomeJSON {
    static let outcome = ResponseShape<OutcomeRecord>("Outcome", [
        .member("id", .id) { $0.id },
        .member("studyId", .string(S.studyId)) { $0.studyId },
        .member("kind", .oneOf(OutcomeKind.allCases)) { $0.kind },
        .member("date", .date) { $0.date },
        .member("pod", .integer) { $0.pod },
        .member("sodium", .nullable(.number)) { $0.sodium },
        .member("note", .nullable(.string)) { $0.note },
        .member("source", .oneOf(OutcomeSource.allCases)) { $0.source },
        .member("labId", .nullable(.id)) { $0.labId },
        .member("status", .oneOf(OutcomeStatus.allCases)) { $0.status },
        .member("recordedAt", .instant) { $0.recordedAt },
        .member("recordedBy", .string) { $0.recordedBy },
        .member("withdrawnAt", .nullable(.instant)) { $0.withdrawnAt },
    ])
}
