import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite

extension StudyService {
    /// One line of `hyponatrack patients`: who, risk, current level, where in monitoring.
    func patientSummary(_ db: Connection, _ patient: PatientRecord, snapshot: ActiveRules.Snapshot, now: Double) throws -> JSONValue {
        let risk = snapshot.engine.risk.assess(patient.profile)
        let window = try window(db, patient, snapshot.rules)
        let today = today(patient.profile, now: now)
        let current = try EvaluationRepository.current(db, patientId: patient.id)
        return ["studyId": .string(patient.studyId), "surgeryDate": .string(patient.profile.surgeryDate.description),
                "pod": .int(patient.profile.pod(at: today)), "riskClass": .string(risk.riskClass.rawValue),
                "riskScore": .int(risk.riskScore), "katA": .int(risk.katA), "katB": .int(risk.katB), "katC": .int(risk.katC),
                "katBPending": .bool(risk.katBPending),
                "level": .string(current?.level.rawValue), "levelDate": .string(current?.date.description),
                "reasons": .array((current?.reasonCodes ?? []).map { JSONValue.string($0) }),
                "monitoringActive": .bool(window.contains(today)), "monitoringEnds": .string(window.last.description),
                "activated": .bool(patient.activatedAt != nil), "withdrawn": .bool(patient.isWithdrawn),
                "openAlerts": .int(try AlertRepository.openCount(db, patientId: patient.id))]
    }

    /// `GET /v1/patients`.
    public func listPatients() throws -> JSONValue {
        let snapshot = rules.snapshot
        let now = clock.now()
        return try database.read { db in
            .array(try PatientRepository.all(db).map { try patientSummary(db, $0, snapshot: snapshot, now: now) })
        }
    }

    /// `GET /v1/patients/{studyId}`: profile, risk, activation, and the timeline of days with
    /// their data, lab values and latest evaluations.
    public func showPatient(studyId: String) throws -> JSONValue {
        let snapshot = rules.snapshot
        let now = clock.now()
        return try database.read { db in
            let patient = try patient(db, studyId: studyId)
            let window = try window(db, patient, snapshot.rules)
            let evaluations = try EvaluationRepository.latestPerDate(db, patientId: patient.id)
            let days = try DayRepository.load(db, patientId: patient.id, from: patient.profile.surgeryDate,
                                              to: max(window.last, patient.profile.surgeryDate).adding(days: 30))
            var summary = try patientSummary(db, patient, snapshot: snapshot, now: now)
            if case .object(var o) = summary {
                o["profile"] = ModelJSON.profile(patient.profile)
                o["enrolledAt"] = .string(iso8601UTC(milliseconds: patient.enrolledAt))
                o["enrolledBy"] = .string(patient.enrolledBy)
                o["activatedAt"] = .string(patient.activatedAt.map { iso8601UTC(milliseconds: $0) })
                o["withdrawal"] = patient.withdrawnAt == nil ? .null
                    : ["date": .string(patient.withdrawalDate?.description), "reason": .string(patient.withdrawalReason)]
                o["monitoringStarts"] = .string(window.first.description)
                o["timeline"] = .array(days.map { day in
                    ["date": .string(day.date.description), "pod": .int(patient.profile.pod(at: day.date)),
                     "data": ModelJSON.day(day, includeDate: false),
                     "morningCheckComplete": .bool(day.morningCheckComplete),
                     "eveningCheckComplete": .bool(day.eveningCheckComplete),
                     "evaluation": evaluations[day.date].map(StudyService.evaluationJSON) ?? .null]
                })
                summary = .object(o)
            }
            return summary
        }
    }
}
