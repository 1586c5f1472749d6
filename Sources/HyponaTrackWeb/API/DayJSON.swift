import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import HyponaTrackDomain

/// The instructions a patient reads for a level, in the language they were found in. The texts
/// name `emergencyNumber` (`app.emergencyNumber`) where the rules' texts say `{emergencyNumber}`;
/// a yellow one shown to the patient also says when the clinic will call (`call`, as the web
/// check-in does), before the disclaimer.
struct ShownInstructions: Sendable {
    let level: Level
    let text: String
    let language: String

    init(level: Level, reasonCodes: [String], rules: RuleSet, language: String?, emergencyNumber: String,
         call: ClinicCallPromise? = nil) {
        let found = rules.instructions.text(level: level, reasonCodes: reasonCodes, language: language, emergencyNumber: emergencyNumber)
        self.level = level
        self.language = found.language
        guard level == .yellow, let call, let lang = Language(rawValue: found.language),
              let sentence = ClinicCallWording.sentence(call, texts: rules.instructions.webApp, language: lang) else {
            text = found.text
            return
        }
        let body = rules.instructions.body(level: level, reasonCodes: reasonCodes, language: found.language, emergencyNumber: emergencyNumber)
        text = body + " " + sentence + " " + rules.instructions.disclaimer(found.language, emergencyNumber: emergencyNumber)
    }
}

/// A day's result as the patient (or the correcting nurse) is answered: with its instructions.
struct DayAnswer: Sendable {
    let result: DayResult
    /// Nil for a day that is not evaluated (no rule had its data).
    let instructions: ShownInstructions?

    /// `call`: what a yellow light promises the patient (nil for the nurse's correction).
    init(_ r: DayResult, language: String?, emergencyNumber: String, call: ClinicCallPromise? = nil) {
        result = r
        instructions = r.evaluation.level.map {
            ShownInstructions(level: $0, reasonCodes: r.evaluation.reasonCodes, rules: r.rulesSnapshot.rules, language: language,
                              emergencyNumber: emergencyNumber, call: call)
        }
    }
}

/// Today as the patient app shows it: with the instructions for the level shown.
struct TodayAnswer: Sendable {
    let today: TodayView
    let instructions: ShownInstructions?

    init(_ t: TodayView, language: String?, emergencyNumber: String, call: ClinicCallPromise? = nil) {
        today = t
        instructions = t.shown.map {
            ShownInstructions(level: $0.level, reasonCodes: $0.reasonCodes, rules: t.rulesSnapshot.rules, language: language,
                              emergencyNumber: emergencyNumber, call: call)
        }
    }
}

/// The patient app's forms: a day's result, a stored day with its evaluation, today's plan.
enum DayJSON {
    /// `PUT /v1/me/days/{date}`: level and instructions are null for a day that is not evaluated,
    /// as `/v1/me/today` before any data.
    static let result = ResponseShape<DayAnswer>("DayResult", [
        .member("date", .date) { $0.result.date },
        .member("pod", .integer) { $0.result.evaluation.pod },
        .member("level", .nullable(.level)) { $0.result.evaluation.level },
        .member("reasons", .array(.object(reason))) { $0.result.evaluation.reasons },
        .member("instructions", .nullable(.object(instructions))) { $0.instructions },
        .member("morningCheckComplete", .bool) { $0.result.morningCheckComplete },
        .member("eveningCheckComplete", .bool) { $0.result.eveningCheckComplete },
        .member("rulesVersion", .string) { $0.result.evaluation.rulesVersion },
    ])

    /// A reason as decided: values rounded to 6 decimals for display only (`EvaluationJSON.display`;
    /// decisions were taken on the unrounded values).
    static let reason = ResponseShape<Reason>(nil, [
        .member("code", .string) { $0.code.rawValue },
        .member("level", .oneOf([Level.info, .yellow, .red])) { $0.level },
        .member("value", .number) { EvaluationJSON.display($0.value) },
        .member("threshold", .nullable(.number)) { $0.threshold.map(EvaluationJSON.display) },
    ])

    static let instructions = ResponseShape<ShownInstructions>(nil, [
        .member("level", .level) { $0.level },
        .member("text", .string) { $0.text },
        .member("language", .string(S.oneOf(InstructionTexts.languages))) { $0.language },
    ])

    /// `GET /v1/me/days`, and a patient's timeline.
    static let storedDay = ResponseShape<StoredDay>("StoredDay", [
        .member("date", .date) { $0.day.date },
        .member("pod", .integer) { $0.pod },
        .member("data", .json(S.openObject())) { ModelJSON.day($0.day, includeDate: false) },
        .member("morningCheckComplete", .bool) { $0.day.morningCheckComplete },
        .member("eveningCheckComplete", .bool) { $0.day.eveningCheckComplete },
        .member("evaluation", .nullable(.object(evaluation))) { $0.evaluation },
    ])

    /// A stored evaluation: the latest of its day.
    static let evaluation = ResponseShape<StoredEvaluation>("StoredEvaluation", [
        .member("level", .nullable(.level)) { $0.level },
        .member("reasons", .array(.object(storedReason))) { $0.reasons },
        .member("pod", .integer) { $0.pod },
        .member("riskScore", .integer) { $0.riskScore },
        .member("riskClass", .string(S.oneOf(RiskClass.allCases.map(\.rawValue)))) { $0.riskClass },
        .member("factor", .number) { $0.factor },
        .member("rulesVersion", .string) { $0.rulesVersion },
        .member("cause", .string) { $0.cause },
        .member("evaluatedAt", .instant) { $0.evaluatedAt },
    ])

    /// A reason as stored with an evaluation or an alert (a missing-data alert's has no value),
    /// rounded as `reason`.
    static let storedReason = ResponseShape<StoredReason>("StoredReason", [
        .member("code", .string) { $0.code },
        .member("level", .oneOf([Level.info, .yellow, .red])) { $0.level },
        .member("value", .nullable(.number)) { $0.value.map(EvaluationJSON.display) },
        .member("threshold", .nullable(.number)) { $0.threshold.map(EvaluationJSON.display) },
    ])

    /// `GET /v1/me/today`.
    static let today = ResponseShape<TodayAnswer>("Today", [
        .member("date", .date) { $0.today.date },
        .member("pod", .integer) { $0.today.pod },
        .member("monitoringActive", .bool) { $0.today.monitoringActive },
        .member("monitoringEnds", .date) { $0.today.monitoringEnds },
        .member("level", .nullable(.level)) { $0.today.shown?.level },
        .member("instructions", .nullable(.object(instructions))) { $0.instructions },
        .member("tasks", .array(.object(task))) { $0.today.tasks },
        .member("reminders", .object(reminders)) { $0.today },
        .member("apiVersion", .string) { _ in "1" },
    ])

    static let task = ResponseShape<TaskStatus>(nil, [
        .member("task", .oneOf(CareTask.allCases)) { $0.task },
        .member("due", .oneOf(ReminderRules.Deadline.allCases)) { $0.due },
        .member("state", .oneOf([TaskStatus.State.open, .done, .hidden])) { $0.state },
    ])

    /// The day's reminder plan; adherence rounded to 3 decimals.
    static let reminders = ResponseShape<TodayView>(nil, [
        .member("intensity", .oneOf(ReminderIntensity.allCases)) { $0.plan.intensity },
        .member("adherence", .number) { ($0.adherence * 1000).rounded() / 1000 },
        .member("plan", .array(.object(reminder))) { $0.plan.reminders },
    ])

    static let reminder = ResponseShape<Reminder>(nil, [
        .member("at", .string) { $0.at.description },
        .member("kind", .oneOf([Reminder.Kind.check, .task, .missed, .catchUp])) { $0.kind },
        .member("tasks", .array(.oneOf(CareTask.allCases))) { $0.tasks },
    ])

    /// The components this file declares.
    static let components = [result.component, storedDay.component, evaluation.component, storedReason.component, today.component]
}

/// A staff correction's body (`PATCH /v1/patients/{studyId}/days/{date}`): the day's members as
/// the patient API takes them, and an optional `reason` for the audit row (the console requires
/// one; docs/product.md, third round, C). Both front ends read it here.
enum DayCorrectionBody {
    static let reason = BodyField.text("reason", length: 1...500)

    /// The patch and the reason; a problem with either names its field.
    static func decode(_ body: JSONValue, date: LocalDate, rules: RuleSet) throws(FieldError) -> (patch: DayPatch, reason: String?) {
        guard case .object(var members) = body, let given = members[reason.name] else {
            return (try DayPatchDecoder.decode(body, date: date, rules: rules), nil)
        }
        members[reason.name] = nil
        let text = try decodeBody(.object(JSONObject([(reason.name, given)]))) { r throws(FieldError) in try r.optional(reason) }
        return (try DayPatchDecoder.decode(.object(members), date: date, rules: rules), text)
    }
}
