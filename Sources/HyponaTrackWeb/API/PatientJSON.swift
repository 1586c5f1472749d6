import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import HyponaTrackDomain

/// The API forms of patients, their enrolment, activation codes, labs and corrections.
enum PatientJSON {
    /// A patient's risk, written where it is shown (summary, enrolment, an evaluation).
    static let risk = ResponseShape<RiskAssessment>(nil, [
        .member("riskClass", .oneOf(RiskClass.allCases)) { $0.riskClass },
        .member("riskScore", .integer) { $0.riskScore },
        .member("katA", .integer) { $0.katA },
        .member("katB", .integer) { $0.katB },
        .member("katC", .integer) { $0.katC },
        .member("katBPending", .bool) { $0.katBPending },
    ])

    /// A line of `GET /v1/patients`; the answer to a profile change and a withdrawal.
    static let summary = ResponseShape<PatientSummary>("PatientSummary", [
        .member("studyId", .string(S.studyId)) { $0.patient.studyId },
        .member("site", .string) { $0.site },
        .member("surgeryDate", .date) { $0.patient.profile.surgeryDate },
        .member("pod", .integer) { $0.pod },
    ], risk.embedded { $0.risk }, [
        .member("level", .nullable(.level)) { $0.current?.level },
        .member("levelDate", .nullable(.date)) { $0.current?.date },
        .member("reasons", .array(.string)) { $0.current?.reasonCodes ?? [] },
        .member("monitoringActive", .bool) { $0.monitoringActive },
        .member("monitoringEnds", .date) { $0.monitoringEnds },
        .member("activated", .bool) { $0.patient.activatedAt != nil },
        .member("withdrawn", .bool) { $0.patient.isWithdrawn },
        .member("openAlerts", .integer) { $0.openAlerts },
    ])

    /// `GET /v1/patients/{studyId}`: the summary's members, then the profile and the timeline.
    static let detail = ResponseShape<PatientDetail>("PatientDetail", summary.embedded { $0.summary }, [
        .member("profile", .json(S.ref("Profile"))) { ModelJSON.profile($0.summary.patient.profile) },
        .member("enrolledAt", .instant) { $0.summary.patient.enrolledAt },
        .member("enrolledBy", .string) { $0.summary.patient.enrolledBy },
        .member("activatedAt", .nullable(.instant)) { $0.summary.patient.activatedAt },
        .member("withdrawal", .nullable(.object(withdrawal))) { $0.summary.patient.isWithdrawn ? $0.summary.patient : nil },
        .member("monitoringStarts", .date) { $0.monitoringStarts },
        .member("timeline", .array(.object(DayJSON.storedDay))) { $0.timeline },
    ])

    static let withdrawal = ResponseShape<PatientRecord>(nil, [
        .member("date", .nullable(.date)) { $0.withdrawalDate },
        .member("reason", .nullable(.string)) { $0.withdrawalReason },
    ])

    /// `POST /v1/patients`: the activation code appears here once (and the link that carries it,
    /// with `app.publicURL`).
    static let enrollment = ResponseShape<EnrollmentAnswer>("Enrollment", [
        .member("studyId", .string(S.studyId)) { $0.enrollment.patient.studyId },
    ], risk.embedded { $0.enrollment.risk }, [
        .member("activationCode", .string) { $0.code },
        .member("activationExpiresAt", .instant) { $0.enrollment.activationExpiresAt },
        .member("activationURL", .nullable(.string)) { $0.app.activationURL(studyId: $0.enrollment.patient.studyId, code: $0.code) },
        .member("monitoringEnds", .date) { $0.enrollment.monitoringEnds },
    ])

    /// `POST /v1/patients/{studyId}/activation`: a reissued code, shown once, with its link.
    static let issuedCode = ResponseShape<IssuedCodeAnswer>(nil, [
        .member("studyId", .string(S.studyId)) { $0.studyId },
        .member("activationCode", .string) { $0.grouped },
        .member("activationExpiresAt", .instant) { $0.code.expiresAt },
        .member("activationURL", .nullable(.string)) { $0.app.activationURL(studyId: $0.studyId, code: $0.grouped) },
    ])

    /// `POST /v1/patients/{studyId}/labs`: the value stored and the evaluation it caused.
    static let lab = ResponseShape<LabEntry>(nil, [
        .member("labId", .id) { $0.labId },
        .member("studyId", .string(S.studyId)) { $0.studyId },
        .member("date", .date) { $0.date },
        .member("time", .string(S.dateTime)) { $0.time.description },
        .member("sodium", .number) { $0.sodium },
        .member("evaluation", .nullable(.object(evaluation))) { lab in lab.evaluation.map { (id: lab.studyId, evaluation: $0) } },
    ])

    /// An evaluation as decided (the offline evaluator's result object, `EvaluationJSON.result`).
    static let evaluation = ResponseShape<(id: String, evaluation: Evaluation)>(nil, [
        .member("id", .string) { $0.id },
        .member("level", .nullable(.level)) { $0.evaluation.level },
    ], risk.embedded { $0.evaluation.risk }, [
        .member("pod", .integer) { $0.evaluation.pod },
        .member("criticalWindow", .bool) { $0.evaluation.criticalWindow },
        .member("factor", .number) { EvaluationJSON.display($0.evaluation.factor) },
        .member("reasons", .array(.object(DayJSON.reason))) { $0.evaluation.reasons },
        .member("rulesVersion", .string) { $0.evaluation.rulesVersion },
    ])

    /// `POST …/labs/{labId}/deletion`.
    static let labDeletion = ResponseShape<(labId: Int64, date: LocalDate)>(nil, [
        .member("labId", .id) { $0.labId },
        .member("deleted", .bool) { _ in true },
        .member("date", .date) { $0.date },
    ])

    /// `POST …/days/{date}/{list}/{itemId}/deletion`.
    static let itemDeletion = ResponseShape<(date: LocalDate, list: ItemKind, id: String)>(nil, [
        .member("date", .date) { $0.date },
        .member("list", .oneOf(ItemKind.allCases)) { $0.list },
        .member("id", .string(S.itemId)) { $0.id },
        .member("deleted", .bool) { _ in true },
    ])

    static let components = [summary.component, detail.component, enrollment.component]
}

/// `POST /v1/activate`: the patient token, shown once.
enum ActivationJSON {
    static let activated = ResponseShape<Activated>("Activation", [
        .member("token", .string) { $0.token },
        .member("studyId", .string(S.studyId)) { $0.studyId },
        .member("surgeryDate", .date) { $0.surgeryDate },
        .member("timeZone", .string) { $0.timeZone },
        .member("monitoringEnds", .date) { $0.monitoringEnds },
    ])
}

/// An enrolment as answered: the code grouped for reading, and the activation link when
/// `app.publicURL` is set (docs/product.md, W "QR activation").
struct EnrollmentAnswer {
    let enrollment: Enrollment
    let app: ServerConfiguration.App
    var code: String { Secrets.groupedActivationCode(enrollment.activationCode) }
}

/// A new code as answered (`reissue`, `reissue --add-device`).
struct IssuedCodeAnswer {
    let code: IssuedActivationCode
    let studyId: String
    let app: ServerConfiguration.App
    var grouped: String { Secrets.groupedActivationCode(code.code) }
}
