import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite

extension StudyService {
    /// `PUT /v1/me/days/{date}`: merge, store, evaluate D (and D+1, D+2 when they hold data),
    /// all in one transaction; the caller answers after it returns, i.e. after COMMIT.
    public func submitDay(patientId: Int64, date dateText: String, body: JSONValue, language: String?) throws -> JSONValue {
        guard let date = LocalDate(dateText) else { throw DomainError.invalid("date", "\"\(dateText.prefix(40))\" is not a date YYYY-MM-DD") }
        let patch: DayPatch
        do { patch = try DayPatchDecoder.decode(body, date: date) } catch { throw DomainError.from(error) }
        let snapshot = rules.snapshot
        let (now, ms) = nowMilliseconds()
        return try write { db in
            guard let patient = try PatientRepository.load(db, id: patientId), !patient.isWithdrawn else {
                throw DomainError.unauthenticated
            }
            let window = try window(db, patient, snapshot.rules)
            guard window.contains(date) else {
                throw DomainError.invalid("date", "\(date) is outside the monitoring window \(window.first)–\(window.last)")
            }
            guard date <= today(patient.profile, now: now) else { throw DomainError.invalid("date", "\(date) is in the future") }
            // D-2 … D+2 in one read: D is merged, D and the following days that hold data are
            // evaluated from the same values (rules read the two previous days).
            var days = try DayRepository.load(db, patientId: patient.id, from: date.adding(days: -2), to: date.adding(days: 2))
            let before = days.first { $0.date == date } ?? DailyEntry(date: date)
            let hasItems = !(patch.symptoms.isEmpty && patch.reactionTests.isEmpty && patch.tappingTests.isEmpty
                             && patch.desmopressinDoses.isEmpty)
            let blocked = hasItems ? try DayRepository.deletedItemIds(db, patientId: patient.id, date: date) : []
            let after = patch.apply(to: before, blockedIds: blocked)
            try DayRepository.save(db, patientId: patient.id, day: after, patch: patch, at: ms)
            days.removeAll { $0.date == date }
            days.append(after)
            let actor = "patient:\(patient.studyId)"
            try AuditLog.append(db, at: ms, actor: actor, action: .daySubmit, subject: patient.studyId,
                                details: DayAudit.changes(date: date, before: before, after: after, patch: patch))
            let later = days.map(\.date).filter { $0 > date }
            let evaluation = try evaluate(db, patient, dates: [date], cause: "submission", actor: actor, snapshot: snapshot, at: ms,
                                          preloaded: days)[date]!
            if !later.isEmpty {
                try evaluate(db, patient, dates: later, cause: "submission", actor: actor, snapshot: snapshot, at: ms,
                             onlyIfChanged: true, preloaded: days)
            }
            let text = snapshot.rules.instructions.text(level: evaluation.level, reasonCodes: evaluation.reasonCodes, language: language)
            return ["date": .string(date.description), "pod": .int(evaluation.pod), "level": .string(evaluation.level.rawValue),
                    "reasons": EvaluationJSON.reasons(evaluation),
                    "instructions": ["level": .string(evaluation.level.rawValue), "text": .string(text.text),
                                     "language": .string(text.language)],
                    "morningCheckComplete": .bool(after.morningCheckComplete),
                    "eveningCheckComplete": .bool(after.eveningCheckComplete),
                    "rulesVersion": .string(evaluation.rulesVersion)]
        }
    }

    /// `GET /v1/me/days?from=&to=`: the patient's stored days with their latest evaluations.
    public func days(patientId: Int64, from: String?, to: String?) throws -> JSONValue {
        let snapshot = rules.snapshot
        return try database.read { db in
            guard let patient = try PatientRepository.load(db, id: patientId) else { throw DomainError.unauthenticated }
            let window = try window(db, patient, snapshot.rules)
            let first = try from.map { text -> LocalDate in
                guard let d = LocalDate(text) else { throw DomainError.invalid("from", "\"\(text.prefix(40))\" is not a date YYYY-MM-DD") }
                return d
            } ?? patient.profile.surgeryDate
            let last = try to.map { text -> LocalDate in
                guard let d = LocalDate(text) else { throw DomainError.invalid("to", "\"\(text.prefix(40))\" is not a date YYYY-MM-DD") }
                return d
            } ?? max(window.last, patient.profile.surgeryDate)
            guard first <= last else { throw DomainError.invalid("to", "must not be before from") }
            guard first.days(to: last) <= 400 else { throw DomainError.invalid("to", "at most 400 days at once") }
            let evaluations = try EvaluationRepository.latestPerDate(db, patientId: patient.id)
            let days = try DayRepository.load(db, patientId: patient.id, from: first, to: last)
            return .array(days.map { day in
                ["date": .string(day.date.description), "pod": .int(patient.profile.pod(at: day.date)),
                 "data": ModelJSON.day(day, includeDate: false),
                 "morningCheckComplete": .bool(day.morningCheckComplete), "eveningCheckComplete": .bool(day.eveningCheckComplete),
                 "evaluation": evaluations[day.date].map(StudyService.evaluationJSON) ?? .null]
            })
        }
    }

    static func evaluationJSON(_ e: StoredEvaluation) -> JSONValue {
        ["level": .string(e.level.rawValue), "reasons": ReasonDisplay.json(e.reasons), "pod": .int(e.pod), "riskScore": .int(e.riskScore),
         "riskClass": .string(e.riskClass), "factor": .number(e.factor), "rulesVersion": .string(e.rulesVersion),
         "cause": .string(e.cause), "evaluatedAt": .string(iso8601UTC(milliseconds: e.evaluatedAt))]
    }

    /// `GET /v1/me/today`: today's tasks and reminder plan from the core planner.
    public func today(patientId: Int64, language: String?) throws -> JSONValue {
        let snapshot = rules.snapshot
        let (now, _) = nowMilliseconds()
        return try database.read { db in
            guard let patient = try PatientRepository.load(db, id: patientId) else { throw DomainError.unauthenticated }
            let profile = patient.profile
            let zone = zone(profile)
            let date = zone.localDate(atEpochSeconds: now)
            let window = try window(db, patient, snapshot.rules)
            let days = try DayRepository.load(db, patientId: patient.id, from: date.adding(days: -snapshot.rules.reminders.adherenceDays), to: date)
            let day = days.first { $0.date == date }
            let tasks = CarePlan.tasks(for: profile, on: day, rules: snapshot.rules.reminders)
            let activation = patient.activatedAt.map { zone.localDate(atEpochSeconds: Double($0) / 1000) }
            let adherence = CarePlan.adherence(profile: profile, days: days, today: date, activationDate: activation,
                                               window: window, rules: snapshot.rules.reminders)
            let active = window.contains(date)
            let plan = snapshot.planner.plan(date: date, pod: profile.pod(at: date), adherence: adherence,
                                             tasks: active ? tasks : [], zone: zone)
            let latest = try EvaluationRepository.latest(db, patientId: patient.id, date: date)
            let instructions: JSONValue = latest.map { e in
                let t = snapshot.rules.instructions.text(level: e.level, reasonCodes: e.reasonCodes, language: language)
                return ["level": .string(e.level.rawValue), "text": .string(t.text), "language": .string(t.language)]
            } ?? .null
            return ["date": .string(date.description), "pod": .int(profile.pod(at: date)), "monitoringActive": .bool(active),
                    "monitoringEnds": .string(window.last.description), "level": .string(latest?.level.rawValue),
                    "instructions": instructions,
                    "tasks": .array(tasks.map { ["task": .string($0.task.rawValue), "due": .string($0.due.rawValue),
                                                 "state": .string($0.state.rawValue)] }),
                    "reminders": ["intensity": .string(plan.intensity.rawValue), "adherence": .number((adherence * 1000).rounded() / 1000),
                                  "plan": .array(plan.reminders.map { r in
                                      ["at": .string(r.at.description), "kind": .string(r.kind.rawValue),
                                       "tasks": .array(r.tasks.map { .string($0.rawValue) })]
                                  })],
                    "apiVersion": "1"]
        }
    }
}

/// What a submission changed, for the audit trail: every scalar before and after, and the ids
/// of the items it upserted. Never secrets; only clinical values and ids.
enum DayAudit {
    static func changes(date: LocalDate, before: DailyEntry, after: DailyEntry, patch: DayPatch) -> JSONValue {
        var changed = JSONObject()
        func scalar(_ name: String, _ b: JSONValue, _ a: JSONValue) { if b != a { changed[name] = ["before": b, "after": a] } }
        scalar("weightMorningKg", .double(before.weightMorningKg), .double(after.weightMorningKg))
        scalar("weightEveningKg", .double(before.weightEveningKg), .double(after.weightEveningKg))
        scalar("fluidIntakeMl", .double(before.fluidIntakeMl), .double(after.fluidIntakeMl))
        scalar("urineSG", .double(before.urineSG), .double(after.urineSG))
        scalar("vomitingEpisodes", .int(before.vomitingEpisodes), .int(after.vomitingEpisodes))
        scalar("steps", .int(before.steps), .int(after.steps))
        scalar("hrvSdnnMs", .double(before.hrvSdnnMs), .double(after.hrvSdnnMs))
        scalar("sleepMinutes", .int(before.sleepMinutes), .int(after.sleepMinutes))
        scalar("restingHeartRate", .int(before.restingHeartRate), .int(after.restingHeartRate))
        if before.emergencySymptoms != after.emergencySymptoms {
            changed["emergencySymptoms"] = ["before": .array(before.emergencySymptoms.sorted().map { .string($0.rawValue) }),
                                            "after": .array(after.emergencySymptoms.sorted().map { .string($0.rawValue) })]
        }
        var items = JSONObject()
        var replaced: [JSONValue] = []
        func record<T: Equatable>(_ name: String, _ incoming: [T], _ existing: [T], _ id: (T) -> String, _ json: (T) -> JSONValue) {
            guard !incoming.isEmpty else { return }
            items[name] = .array(incoming.map { .string(id($0)) })
            for item in incoming {
                if let old = existing.first(where: { id($0) == id(item) }), old != item {
                    replaced.append(["list": .string(name), "id": .string(id(item)), "before": json(old), "after": json(item)])
                }
            }
        }
        record("symptoms", patch.symptoms, before.symptoms, { $0.id }, ModelJSON.symptom)
        record("reactionTests", patch.reactionTests, before.reactionTests, { $0.id }, ModelJSON.reactionTest)
        record("tappingTests", patch.tappingTests, before.tappingTests, { $0.id }, ModelJSON.tappingTest)
        record("desmopressinDoses", patch.desmopressinDoses, before.desmopressinDoses, { $0.id }, ModelJSON.desmopressinDose)
        return ["date": .string(date.description), "changed": .object(changed), "upserted": .object(items),
                "replaced": .array(replaced)]
    }
}
