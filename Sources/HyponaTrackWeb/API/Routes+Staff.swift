import HTJSON
import HyponaTrackCore
import HTTPServer
import HyponaTrackDomain
import HyponaTrackKit

extension Routes {
    /// The staff API behind the `hyponatrack` CLI (docs/product.md, "Staff API").
    static func staff(_ service: StudyService, _ access: ActivationService) -> [Route] {
        patients(service) + admin(service, access) + sites(service) + exports(service) + imports(service) + contacts(service) + outcomes(service) + ruleTrials(service)
    }

    /// Enrolment, profiles, activation codes, labs and corrections.
    static func patients(_ service: StudyService) -> [Route] {
        let reason = S.body([PatientBodies.reason.required.member])
        let with = Responses.adding(to: Responses.staff(notFound: "no such patient or item"))
        return [
            Route(.post, "/v1/patients", access: .staff(.write), touches: .enrolment, summary: "Enroll a patient; returns the one-time activation code",
                  request: S.ref("Profile"),
                  responses: with([201: ("enrolled", PatientJSON.enrollment.reference), 409: ("study ID already enrolled", S.error)])) { ctx in
                // The site first: its time zone is the enrolment default.
                let (code, members) = try PatientBodies.site(ctx.body)
                let site = try service.sites.enrolmentSite(code: code, scope: ctx.scope)
                let body = PatientBodies.withDefaultTimeZone(members, site.timeZone ?? service.configuration.defaultTimeZone)
                let profile: PatientProfile
                do throws(FieldError) { profile = try ProfileDecoder.decode(body, path: "", rules: service.rules.snapshot.rules) } catch {
                    throw APIError.from(error)
                }
                let enrolled = try service.enrollment.enroll(Enroll(profile: profile, site: site.code, scope: ctx.scope, actor: ctx.actor))
                return .json(.created, PatientJSON.enrollment.encode(EnrollmentAnswer(enrollment: enrolled, app: service.configuration.app)))
            },
            Route(.get, "/v1/patients", access: .staff(.read), touches: .list, summary: "Every patient with risk class and current level",
                  query: [SiteParameters.filter], responses: with([200: ("patients", S.array(PatientJSON.summary.reference))])) { ctx in
                .json(.ok, .array(try service.patients.list(scope: ctx.scope).map(PatientJSON.summary.encode)))
            },
            Route(.get, "/v1/patients/{studyId}", access: .staff(.read), touches: .patient, summary: "A patient's profile and timeline",
                  responses: with([200: ("the patient", PatientJSON.detail.reference)])) { ctx in
                .json(.ok, PatientJSON.detail.encode(try service.patients.show(studyId: ctx.parameter("studyId"))))
            },
            Route(.patch, "/v1/patients/{studyId}", access: .staff(.write), touches: .patient,
                  summary: "Update profile fields (Kat B arriving, corrections); re-evaluates the monitoring window",
                  request: S.ref("ProfilePatch"),
                  responses: with([200: ("updated", PatientJSON.summary.reference), 409: ("surgery date or time zone with data, or withdrawn", S.error)])) { ctx in
                guard case .object(let patch) = ctx.body else { throw APIError.invalid(nil, "expected a JSON object") }
                if patch["studyId"] != nil {
                    throw APIError(status: 400, code: "not_allowed", message: "the study ID cannot change", field: "studyId")
                }
                let command = UpdateProfile(studyId: ctx.parameter("studyId"), patch: ProfilePatch(patch), actor: ctx.actor)
                return .json(.ok, PatientJSON.summary.encode(try service.enrollment.updateProfile(command)))
            },
            Route(.post, "/v1/patients/{studyId}/withdrawal", access: .staff(.write), touches: .patient,
                  summary: "Withdraw a patient: monitoring ends, the patient's token stops working",
                  request: S.body([PatientBodies.reason.required.member, PatientBodies.date.member]),
                  responses: with([200: ("withdrawn", PatientJSON.summary.reference), 409: ("already withdrawn", S.error)])) { ctx in
                let command = try decodeBody(ctx.body) { r throws(FieldError) in
                    Withdraw(studyId: ctx.parameter("studyId"), reason: try r.required(PatientBodies.reason.required),
                             date: try r.optional(PatientBodies.date), actor: ctx.actor)
                }
                return .json(.ok, PatientJSON.summary.encode(try service.enrollment.withdraw(command)))
            },
            Route(.post, "/v1/patients/{studyId}/activation", access: .staff(.write), touches: .patient,
                  summary: "Reissue the activation code; every earlier patient token stops working, unless addDevice "
                           + "(a further code for a second device; existing tokens keep working)",
                  request: S.body([PatientBodies.addDevice.member]),
                  responses: with([200: ("new code (and activationURL when app.publicURL is set)", PatientJSON.issuedCode.reference),
                                   409: ("withdrawn, or the patient's access has ended (tokens.patientDaysAfterMonitoring): "
                                         + "no code is issued", S.error)])) { ctx in
                let addDevice = try decodeBody(ctx.body) { r throws(FieldError) in try r.optional(PatientBodies.addDevice) ?? false }
                let issued = try service.enrollment.reissueActivation(studyId: ctx.parameter("studyId"), actor: ctx.actor, addDevice: addDevice)
                return .json(.ok, PatientJSON.issuedCode.encode(IssuedCodeAnswer(code: issued, studyId: ctx.parameter("studyId"),
                                                                                  app: service.configuration.app)))
            },
            Route(.post, "/v1/patients/{studyId}/labs", access: .staff(.write), touches: .patient, summary: "Enter a lab sodium value",
                  request: S.body([PatientBodies.sodium.required.member, PatientBodies.time.member]),
                  responses: with([201: ("stored and evaluated", PatientJSON.lab.reference),
                                   409: ("limit_reached: the day holds limits.itemsPerList lab values; or conflict: the patient has withdrawn",
                                         S.error)])) { ctx in
                let command = try decodeBody(ctx.body) { r throws(FieldError) in
                    AddLab(studyId: ctx.parameter("studyId"), sodium: try r.required(PatientBodies.sodium.required),
                           time: try r.optional(PatientBodies.time), actor: ctx.actor)
                }
                return .json(.created, PatientJSON.lab.encode(try service.corrections.addLab(command)))
            },
            Route(.post, "/v1/patients/{studyId}/labs/{labId}/deletion", access: .staff(.write), touches: .patient,
                  summary: "Delete a wrong lab value (kept, marked deleted, with the reason)", request: reason,
                  responses: with([200: ("deleted", PatientJSON.labDeletion.reference),
                                   409: ("conflict: the patient has withdrawn", S.error)])) { ctx in
                guard let labId = Int64(ctx.parameter("labId")), labId > 0 else { throw APIError.invalid("labId", "not a lab value id") }
                let reason = try PatientBodies.reason(ctx)
                let date = try service.corrections.deleteLab(DeleteLab(studyId: ctx.parameter("studyId"), labId: labId, reason: reason,
                                                                       actor: ctx.actor))
                return .json(.ok, PatientJSON.labDeletion.encode((labId: labId, date: date)))
            },
            Route(.post, "/v1/patients/{studyId}/days/{date}/{list}/{itemId}/deletion", access: .staff(.write), touches: .patient,
                  summary: "Delete a wrong list item (symptoms, reactionTests, tappingTests, desmopressinDoses)", request: reason,
                  responses: with([200: ("deleted", PatientJSON.itemDeletion.reference),
                                   409: ("conflict: the patient has withdrawn", S.error)])) { ctx in
                guard let date = LocalDate(ctx.parameter("date")) else { throw APIError.invalid("date", "not a date YYYY-MM-DD") }
                guard let list = ItemKind(rawValue: ctx.parameter("list")) else {
                    throw APIError.invalid("list", "one of \(ItemKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                let itemId = ctx.parameter("itemId")
                guard ValueRanges.isValidItemId(itemId) else { throw APIError.invalid("itemId", "not an item id") }
                let reason = try PatientBodies.reason(ctx)
                try service.corrections.deleteItem(DeleteItem(studyId: ctx.parameter("studyId"), date: date, list: list, itemId: itemId,
                                                              reason: reason, actor: ctx.actor))
                return .json(.ok, PatientJSON.itemDeletion.encode((date: date, list: list, id: itemId)))
            },
        ]
    }
}

/// The patient routes' body members, declared once for the decoder and the spec.
enum PatientBodies {
    /// `POST …/activation`: a further code for a second device, existing tokens kept.
    static let addDevice = BodyField.bool("addDevice")
    static let reason = BodyField.text("reason", length: 1...500)
    static let sodium = BodyField.number("sodium", ValueRanges.sodium)
    /// The withdrawal date; an impossible calendar date is refused with the field named.
    static let date = BodyField.parsed("date", length: 10...10, schema: S.date, refusal: "not a date YYYY-MM-DD", LocalDate.init)
    /// A lab time: ISO 8601 with a UTC offset.
    static let time = BodyField.parsed("time", length: 16...40, schema: S.dateTime,
                                       refusal: "expected an ISO 8601 time with a UTC offset", Timestamp.init)

    /// An enrolment body without a time zone: the patient lives in the study's default one
    /// (`defaultTimeZone`). The console's enrolment form takes the same default.
    static func withDefaultTimeZone(_ body: JSONValue, _ zone: String) -> JSONValue {
        guard case .object(let o) = body else { return body }
        return .object(withDefaultTimeZone(o, zone))
    }

    static func withDefaultTimeZone(_ body: JSONObject, _ zone: String) -> JSONObject {
        guard body["timeZone"] == nil || body["timeZone"] == .null else { return body }
        var o = body
        o["timeZone"] = .string(zone)
        return o
    }

    /// An enrolment body's `site` (a code; absent or null: the study's only site), and the body
    /// without it for the profile's decoder.
    static func site(_ body: JSONValue) throws -> (code: String?, profile: JSONValue) {
        guard case .object(var o) = body, let value = o["site"] else { return (nil, body) }
        o["site"] = nil
        if value.isNull { return (nil, .object(o)) }
        do throws(FieldError) { return (try SiteBodies.site.read.convert(value, "site"), .object(o)) } catch { throw APIError.from(error) }
    }

    /// A `{"reason"}` body.
    static func reason(_ ctx: RequestContext) throws -> String {
        try decodeBody(ctx.body) { r throws(FieldError) in try r.required(reason.required) }
    }
}
