import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite

extension StudyService {
    /// `POST /v1/patients/{studyId}/labs` `{"sodium", "time"?}`: a staff lab value. Its date is
    /// the local date of its time in the patient's zone; that day and the two after it (when they
    /// hold data) are re-evaluated.
    public func addLab(studyId: String, body: JSONValue, actor: String) throws -> JSONValue {
        let sodium: Double, timeText: String?
        do {
            let r = try ObjectReader(body)
            sodium = try r.required("sodium", .number(ValueRanges.sodium))
            timeText = try r.optional("time", .string(length: 16...40))
            try r.finish()
        } catch { throw DomainError.from(error) }
        let snapshot = rules.snapshot
        let (now, ms) = nowMilliseconds()
        return try write { db in
            let patient = try patient(db, studyId: studyId)
            let zone = zone(patient.profile)
            let time: Timestamp
            if let timeText {
                guard let t = Timestamp(timeText) else { throw DomainError.invalid("time", "expected an ISO 8601 time with a UTC offset") }
                guard t.epochSeconds <= now + 300 else { throw DomainError.invalid("time", "the lab time is in the future") }
                time = t
            } else {
                time = zone.timestamp(atEpochSeconds: (now * 1000).rounded() / 1000)
            }
            let date = zone.localDate(atEpochSeconds: time.epochSeconds)
            guard date >= patient.profile.surgeryDate else { throw DomainError.invalid("time", "the lab time is before the surgery date") }
            let labId = try DayRepository.addLab(db, patientId: patient.id, date: date, time: time, sodium: sodium, by: actor, at: ms)
            try AuditLog.append(db, at: ms, actor: actor, action: .labAdd, subject: patient.studyId,
                                details: ["labId": .number(Double(labId)), "date": .string(date.description),
                                          "time": .string(time.description), "sodium": .number(sodium)])
            let dates = try datesAffected(by: date, db, patientId: patient.id)
            let results = try evaluate(db, patient, dates: dates, cause: "lab", actor: actor, snapshot: snapshot, at: ms)
            return ["labId": .number(Double(labId)), "studyId": .string(patient.studyId), "date": .string(date.description),
                    "time": .string(time.description), "sodium": .number(sodium),
                    "evaluation": results[date].map { EvaluationJSON.result(id: patient.studyId, $0) } ?? .null]
        }
    }

    /// `POST /v1/patients/{studyId}/labs/{labId}/deletion` `{"reason"}`: kept, marked deleted.
    public func deleteLab(studyId: String, labId labText: String, body: JSONValue, actor: String) throws -> JSONValue {
        guard let labId = Int64(labText), labId > 0 else { throw DomainError.invalid("labId", "not a lab value id") }
        let reason = try Self.reason(body)
        let snapshot = rules.snapshot
        let (_, ms) = nowMilliseconds()
        return try write { db in
            let patient = try patient(db, studyId: studyId)
            guard let deleted = try DayRepository.deleteLab(db, patientId: patient.id, labId: labId, by: actor, reason: reason, at: ms)
            else { throw DomainError.notFound("no lab value \(labId) for \(patient.studyId)") }
            try AuditLog.append(db, at: ms, actor: actor, action: .labDelete, subject: patient.studyId,
                                details: ["labId": .number(Double(labId)), "date": .string(deleted.date.description),
                                          "before": ["sodium": .number(deleted.sodium)], "reason": .string(reason)])
            let dates = try datesAffected(by: deleted.date, db, patientId: patient.id)
            try evaluate(db, patient, dates: dates, cause: "correction", actor: actor, snapshot: snapshot, at: ms)
            return ["labId": .number(Double(labId)), "deleted": true, "date": .string(deleted.date.description)]
        }
    }

    /// `POST /v1/patients/{studyId}/days/{date}/{list}/{itemId}/deletion` `{"reason"}`: removes a
    /// wrong list item (kept, marked deleted; a retried submission cannot bring it back).
    public func deleteItem(studyId: String, date dateText: String, list: String, itemId: String, body: JSONValue,
                           actor: String) throws -> JSONValue {
        guard let date = LocalDate(dateText) else { throw DomainError.invalid("date", "not a date YYYY-MM-DD") }
        guard let kind = ItemKind(rawValue: list) else {
            throw DomainError.invalid("list", "one of \(ItemKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard ValueRanges.isValidItemId(itemId) else { throw DomainError.invalid("itemId", "not an item id") }
        let reason = try Self.reason(body)
        let snapshot = rules.snapshot
        let (_, ms) = nowMilliseconds()
        return try write { db in
            let patient = try patient(db, studyId: studyId)
            let before = try DayRepository.load(db, patientId: patient.id, date: date)
            guard try DayRepository.deleteItem(db, kind: kind, patientId: patient.id, date: date, clientId: itemId,
                                               by: actor, reason: reason, at: ms)
            else { throw DomainError.notFound("no \(list) item \(itemId) on \(date)") }
            let old = ModelJSON.day(before, includeDate: false)
            var removed: JSONValue = .null
            if case .object(let o) = old, case .array(let items)? = o[list] {
                removed = items.first { if case .object(let i) = $0 { return i["id"] == .string(itemId) } else { return false } } ?? .null
            }
            try AuditLog.append(db, at: ms, actor: actor, action: .itemDelete, subject: patient.studyId,
                                details: ["date": .string(date.description), "list": .string(list), "id": .string(itemId),
                                          "before": removed, "reason": .string(reason)])
            let dates = try datesAffected(by: date, db, patientId: patient.id)
            try evaluate(db, patient, dates: dates, cause: "correction", actor: actor, snapshot: snapshot, at: ms)
            return ["date": .string(date.description), "list": .string(list), "id": .string(itemId), "deleted": true]
        }
    }

    static func reason(_ body: JSONValue) throws -> String {
        do {
            let r = try ObjectReader(body)
            let reason = try r.required("reason", .string(length: 1...500))
            try r.finish()
            return reason
        } catch { throw DomainError.from(error) }
    }
}
