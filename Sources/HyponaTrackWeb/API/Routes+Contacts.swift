import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

extension Routes {
    /// The contact log (docs/product.md, "Contact log"): nurses log each attempt to reach a
    /// patient; every staff role reads them.
    static func contacts(_ service: StudyService) -> [Route] {
        let with = Responses.adding(to: Responses.staff(notFound: "no such patient, or alertId is not one of the patient's alerts"))
        return [
            Route(.post, "/v1/patients/{studyId}/contacts", access: .staff(.write), touches: .patient,
                  summary: "Log a contact attempt with the patient; one naming an open alert (alertId) acknowledges it",
                  request: S.body(ContactBodies.contact),
                  responses: with([201: ("logged", ContactJSON.added.reference)])) { ctx in
                let command = try decodeBody(ctx.body) { r throws(FieldError) in
                    try ContactBodies.command(r, studyId: ctx.parameter("studyId"), actor: ctx.actor)
                }
                return .json(.created, ContactJSON.added.encode(try service.contacts.add(command)))
            },
            Route(.get, "/v1/patients/{studyId}/contacts", access: .staff(.read), touches: .patient,
                  summary: "The patient's contact attempts, newest first",
                  responses: with([200: ("contacts", S.array(ContactJSON.contact.reference))])) { ctx in
                .json(.ok, .array(try service.contacts.contacts(studyId: ctx.parameter("studyId")).map(ContactJSON.contact.encode)))
            },
        ]
    }
}

/// The contact routes' body members, declared once for the decoder, the console's form and the spec.
enum ContactBodies {
    static let outcome = BodyField.oneOf("outcome", ContactOutcome.allCases.map(\.rawValue))
    static let note = BodyField.text("note", length: 1...1000)
    /// An alert id (the API's ids are below 2^53, as JSON numbers carry them exactly).
    static let alertId = BodyField.integer("alertId", 1...9_007_199_254_740_991)
    static let contact = [outcome.required.member, note.member, alertId.member]

    /// The command a body (the API's, or the console form's as `FormInput` makes it) asks for.
    static func command(_ r: ObjectReader, studyId: String, actor: String) throws(FieldError) -> AddContact {
        // `oneOf` admitted only the outcomes' codes.
        let outcome = ContactOutcome(rawValue: try r.required(outcome.required)) ?? .other
        return AddContact(studyId: studyId, outcome: outcome, note: try r.optional(note), alertId: try r.optional(alertId).map(Int64.init),
                          actor: actor)
    }
}

/// The API form of a contact attempt, declared once for the encoder and `/openapi.json`.
enum ContactJSON {
    static let contact = ResponseShape<ContactRecord>(nil, [
        .member("id", .id) { $0.id },
        .member("studyId", .string(S.studyId)) { $0.studyId },
        .member("at", .instant) { $0.at },
        .member("outcome", .oneOf(ContactOutcome.allCases)) { $0.outcome },
        .member("alertId", .nullable(.id)) { $0.alertId },
        .member("by", .string) { $0.by },
        .member("note", .nullable(.string)) { $0.note },
    ])

    /// A contact just logged, and whether it acknowledged the alert it names.
    static let added = ResponseShape<ContactAdded>(nil, contact.embedded { $0.contact }, [
        .member("acknowledgedAlert", .bool) { $0.acknowledgedAlert },
    ])
}
