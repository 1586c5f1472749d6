import HTJSON
import HTTPServer

extension Routes {
    /// The staff API behind the `hyponatrack` CLI (product.md, "Staff API").
    static func staff(_ service: StudyService, _ access: ActivationService) -> [Route] {
        patients(service) + admin(service, access)
    }

    /// Enrolment, profiles, activation codes, labs and corrections.
    static func patients(_ service: StudyService) -> [Route] {
        let reason = S.object([("reason", S.string(min: 1, max: 500))], required: ["reason"])
        let common: [HTTPStatus: (description: String, schema: JSONValue?)] = [
            400: ("invalid request", S.error), 401: ("no valid staff token", S.error), 403: ("role not allowed", S.error),
            404: ("no such patient or item", S.error)]
        func with(_ extra: [HTTPStatus: (description: String, schema: JSONValue?)]) -> [HTTPStatus: (description: String, schema: JSONValue?)] {
            common.merging(extra) { _, new in new }
        }
        return [
            Route(.post, "/v1/patients", access: .staff(.write), summary: "Enroll a patient; returns the one-time activation code",
                  request: S.ref("Profile"),
                  responses: with([201: ("enrolled", S.ref("Enrollment")), 409: ("study ID already enrolled", S.error)])) { ctx in
                let e = try service.enroll(body: ctx.body, actor: ctx.actor)
                return .json(201, ["studyId": .string(e.patient.studyId), "riskClass": .string(e.risk.riskClass.rawValue),
                                   "riskScore": .int(e.risk.riskScore), "katA": .int(e.risk.katA), "katB": .int(e.risk.katB),
                                   "katC": .int(e.risk.katC), "katBPending": .bool(e.risk.katBPending),
                                   "activationCode": .string(Secrets.groupedActivationCode(e.activationCode)),
                                   "activationExpiresAt": .string(iso8601UTC(milliseconds: e.activationExpiresAt)),
                                   "monitoringEnds": .string(e.monitoringEnds.description)])
            },
            Route(.get, "/v1/patients", access: .staff(.read), summary: "Every patient with risk class and current level",
                  responses: with([200: ("patients", S.array(S.ref("PatientSummary")))])) { _ in
                .json(200, try service.listPatients())
            },
            Route(.get, "/v1/patients/{studyId}", access: .staff(.read), summary: "A patient's profile and timeline",
                  responses: with([200: ("the patient", S.openObject())])) { ctx in
                .json(200, try service.showPatient(studyId: ctx.parameter("studyId")))
            },
            Route(.patch, "/v1/patients/{studyId}", access: .staff(.write),
                  summary: "Update profile fields (Kat B arriving, corrections); re-evaluates the monitoring window",
                  request: S.ref("ProfilePatch"),
                  responses: with([200: ("updated", S.ref("PatientSummary")), 409: ("surgery date with data, or withdrawn", S.error)])) { ctx in
                .json(200, try service.updateProfile(studyId: ctx.parameter("studyId"), body: ctx.body, actor: ctx.actor))
            },
            Route(.post, "/v1/patients/{studyId}/withdrawal", access: .staff(.write),
                  summary: "Withdraw a patient: monitoring ends, the patient's token stops working",
                  request: S.body([("reason", S.string(min: 1, max: 500)), ("date", S.date)], required: ["reason"]),
                  responses: with([200: ("withdrawn", S.ref("PatientSummary")), 409: ("already withdrawn", S.error)])) { ctx in
                .json(200, try service.withdraw(studyId: ctx.parameter("studyId"), body: ctx.body, actor: ctx.actor))
            },
            Route(.post, "/v1/patients/{studyId}/activation", access: .staff(.write),
                  summary: "Reissue the activation code; every earlier patient token stops working",
                  responses: with([200: ("new code", S.object([("studyId", S.studyId), ("activationCode", S.anyString),
                                                                ("activationExpiresAt", S.anyString)], required: ["activationCode"])),
                                   409: ("withdrawn", S.error)])) { ctx in
                let issued = try service.reissueActivation(studyId: ctx.parameter("studyId"), actor: ctx.actor)
                return .json(200, ["studyId": .string(ctx.parameter("studyId")),
                                   "activationCode": .string(Secrets.groupedActivationCode(issued.code)),
                                   "activationExpiresAt": .string(iso8601UTC(milliseconds: issued.expiresAt))])
            },
            Route(.post, "/v1/patients/{studyId}/labs", access: .staff(.write), summary: "Enter a lab sodium value",
                  request: S.body([("sodium", S.number(100, 180)), ("time", S.dateTime)], required: ["sodium"]),
                  responses: with([201: ("stored and evaluated", S.openObject())])) { ctx in
                .json(201, try service.addLab(studyId: ctx.parameter("studyId"), body: ctx.body, actor: ctx.actor))
            },
            Route(.post, "/v1/patients/{studyId}/labs/{labId}/deletion", access: .staff(.write),
                  summary: "Delete a wrong lab value (kept, marked deleted, with the reason)", request: reason,
                  responses: with([200: ("deleted", S.openObject())])) { ctx in
                .json(200, try service.deleteLab(studyId: ctx.parameter("studyId"), labId: ctx.parameter("labId"),
                                                 body: ctx.body, actor: ctx.actor))
            },
            Route(.post, "/v1/patients/{studyId}/days/{date}/{list}/{itemId}/deletion", access: .staff(.write),
                  summary: "Delete a wrong list item (symptoms, reactionTests, tappingTests, desmopressinDoses)", request: reason,
                  responses: with([200: ("deleted", S.openObject())])) { ctx in
                .json(200, try service.deleteItem(studyId: ctx.parameter("studyId"), date: ctx.parameter("date"),
                                                  list: ctx.parameter("list"), itemId: ctx.parameter("itemId"),
                                                  body: ctx.body, actor: ctx.actor))
            },
        ]
    }
}
