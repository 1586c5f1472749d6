import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import HyponaTrackDomain

/// The API forms of patients, their days and their evaluations.
enum PatientJSON {
    static func summary(_ s: PatientSummary) -> JSONValue {
        let p = s.patient, risk = s.risk
        return ["studyId": .string(p.studyId), "surgeryDate": .string(p.profile.surgeryDate.description),
                "pod": .int(s.pod), "riskClass": .string(risk.riskClass.rawValue),
                "riskScore": .int(risk.riskScore), "katA": .int(risk.katA), "katB": .int(risk.katB), "katC": .int(risk.katC),
                "katBPending": .bool(risk.katBPending),
                "level": .string(s.current?.level.rawValue), "levelDate": .string(s.current?.date.description),
                "reasons": .array((s.current?.reasonCodes ?? []).map { JSONValue.string($0) }),
                "monitoringActive": .bool(s.monitoringActive), "monitoringEnds": .string(s.monitoringEnds.description),
                "activated": .bool(p.activatedAt != nil), "withdrawn": .bool(p.isWithdrawn),
                "openAlerts": .int(s.openAlerts)]
    }

    static func detail(_ d: PatientDetail) -> JSONValue {
        guard case .object(var o) = summary(d.summary) else { return .null }
        let p = d.summary.patient
        o["profile"] = ModelJSON.profile(p.profile)
        o["enrolledAt"] = .string(iso8601UTC(milliseconds: p.enrolledAt))
        o["enrolledBy"] = .string(p.enrolledBy)
        o["activatedAt"] = .string(p.activatedAt.map { iso8601UTC(milliseconds: $0) })
        o["withdrawal"] = p.withdrawnAt == nil ? .null
            : ["date": .string(p.withdrawalDate?.description), "reason": .string(p.withdrawalReason)]
        o["monitoringStarts"] = .string(d.monitoringStarts.description)
        o["timeline"] = .array(d.timeline.map(storedDay))
        return .object(o)
    }

    static func storedDay(_ s: StoredDay) -> JSONValue {
        ["date": .string(s.day.date.description), "pod": .int(s.pod), "data": ModelJSON.day(s.day, includeDate: false),
         "morningCheckComplete": .bool(s.day.morningCheckComplete), "eveningCheckComplete": .bool(s.day.eveningCheckComplete),
         "evaluation": s.evaluation.map(evaluation) ?? .null]
    }

    static func evaluation(_ e: StoredEvaluation) -> JSONValue {
        ["level": .string(e.level?.rawValue), "reasons": ReasonDisplay.json(e.reasons), "pod": .int(e.pod), "riskScore": .int(e.riskScore),
         "riskClass": .string(e.riskClass), "factor": .number(e.factor), "rulesVersion": .string(e.rulesVersion),
         "cause": .string(e.cause), "evaluatedAt": .string(iso8601UTC(milliseconds: e.evaluatedAt))]
    }

    static func enrollment(_ e: Enrollment) -> JSONValue {
        ["studyId": .string(e.patient.studyId), "riskClass": .string(e.risk.riskClass.rawValue),
         "riskScore": .int(e.risk.riskScore), "katA": .int(e.risk.katA), "katB": .int(e.risk.katB),
         "katC": .int(e.risk.katC), "katBPending": .bool(e.risk.katBPending),
         "activationCode": .string(Secrets.groupedActivationCode(e.activationCode)),
         "activationExpiresAt": .string(iso8601UTC(milliseconds: e.activationExpiresAt)),
         "monitoringEnds": .string(e.monitoringEnds.description)]
    }

    static func issuedCode(_ c: IssuedActivationCode, studyId: String) -> JSONValue {
        ["studyId": .string(studyId), "activationCode": .string(Secrets.groupedActivationCode(c.code)),
         "activationExpiresAt": .string(iso8601UTC(milliseconds: c.expiresAt))]
    }

    static func lab(_ l: LabEntry) -> JSONValue {
        ["labId": .number(Double(l.labId)), "studyId": .string(l.studyId), "date": .string(l.date.description),
         "time": .string(l.time.description), "sodium": .number(l.sodium),
         "evaluation": l.evaluation.map { EvaluationJSON.result(id: l.studyId, $0) } ?? .null]
    }
}

/// The patient app's forms: a day's result and today's plan. The instructions name
/// `emergencyNumber` (`app.emergencyNumber`) where the rules' texts say `{emergencyNumber}`.
enum DayJSON {
    /// A day that is not evaluated has `level` and `instructions` null, as `/v1/me/today` before any data.
    static func result(_ r: DayResult, language: String?, emergencyNumber: String) -> JSONValue {
        let e = r.evaluation
        let instructions: JSONValue = e.level.map { level in
            let text = r.rulesSnapshot.rules.instructions.text(level: level, reasonCodes: e.reasonCodes, language: language,
                                                                emergencyNumber: emergencyNumber)
            return ["level": .string(level.rawValue), "text": .string(text.text), "language": .string(text.language)]
        } ?? .null
        return ["date": .string(r.date.description), "pod": .int(e.pod), "level": .string(e.level?.rawValue),
                "reasons": EvaluationJSON.reasons(e), "instructions": instructions,
                "morningCheckComplete": .bool(r.morningCheckComplete), "eveningCheckComplete": .bool(r.eveningCheckComplete),
                "rulesVersion": .string(e.rulesVersion)]
    }

    static func today(_ t: TodayView, language: String?, emergencyNumber: String) -> JSONValue {
        let instructions: JSONValue = t.shown.map { shown in
            let text = t.rulesSnapshot.rules.instructions.text(level: shown.level, reasonCodes: shown.reasonCodes, language: language,
                                                               emergencyNumber: emergencyNumber)
            return ["level": .string(shown.level.rawValue), "text": .string(text.text), "language": .string(text.language)]
        } ?? .null
        return ["date": .string(t.date.description), "pod": .int(t.pod), "monitoringActive": .bool(t.monitoringActive),
                "monitoringEnds": .string(t.monitoringEnds.description), "level": .string(t.shown?.level.rawValue),
                "instructions": instructions,
                "tasks": .array(t.tasks.map { ["task": .string($0.task.rawValue), "due": .string($0.due.rawValue),
                                               "state": .string($0.state.rawValue)] }),
                "reminders": ["intensity": .string(t.plan.intensity.rawValue), "adherence": .number((t.adherence * 1000).rounded() / 1000),
                              "plan": .array(t.plan.reminders.map { r in
                                  ["at": .string(r.at.description), "kind": .string(r.kind.rawValue),
                                   "tasks": .array(r.tasks.map { .string($0.rawValue) })]
                              })],
                "apiVersion": "1"]
    }
}
