import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite

extension StudyService {
    /// `PATCH /v1/patients/{studyId}`: a partial profile in the case format (nested `katB`/`katC`
    /// merge member by member; null clears). The merged profile is validated as a whole, every
    /// stored day of the monitoring window is re-evaluated, and the audit row keeps before/after.
    public func updateProfile(studyId: String, body: JSONValue, actor: String) throws -> JSONValue {
        guard case .object(let patchObject) = body else { throw DomainError.invalid(nil, "expected a JSON object") }
        if patchObject["studyId"] != nil {
            throw DomainError.rejected(FieldError(.notAllowed, field: "studyId", "the study ID cannot change"))
        }
        let snapshot = rules.snapshot
        let (now, ms) = nowMilliseconds()
        return try write { db in
            let patient = try patient(db, studyId: studyId)
            guard !patient.isWithdrawn else { throw DomainError.conflict("the patient has withdrawn; the profile is closed") }
            let beforeJSON = ModelJSON.profile(patient.profile)
            let merged = ProfileMerge.merge(beforeJSON, .object(patchObject))
            let profile: PatientProfile
            do { profile = try ProfileDecoder.decode(merged, path: "", rules: snapshot.rules) } catch let e as FieldError {
                throw DomainError.from(e)
            }
            if profile.surgeryDate != patient.profile.surgeryDate {
                guard try !DayRepository.hasAnyDayData(db, patientId: patient.id) else {
                    throw DomainError.conflict("the surgery date cannot change once the patient has sent data", field: "surgeryDate")
                }
                try checkSurgeryDate(profile, now: now, field: "surgeryDate")
            }
            let afterJSON = ModelJSON.profile(profile)
            try PatientRepository.updateProfile(db, id: patient.id, profile: profile, at: ms)
            try AuditLog.append(db, at: ms, actor: actor, action: .patientUpdate, subject: patient.studyId,
                                details: ["changes": ProfileMerge.diff(beforeJSON, afterJSON)])
            var updated = patient
            updated.profile = profile
            try outbox?.enqueueBaseline(db, updated, snapshot: snapshot, at: ms)
            let window = try window(db, updated, snapshot.rules)
            let stored = try DayRepository.load(db, patientId: patient.id, from: window.first, to: window.last).map(\.date)
            try evaluate(db, updated, dates: stored, cause: "profile", actor: actor, snapshot: snapshot, at: ms, onlyIfChanged: true)
            return try patientSummary(db, updated, snapshot: snapshot, now: now)
        }
    }

    /// `POST /v1/patients/{studyId}/withdrawal`: monitoring ends; the patient's token stops working.
    public func withdraw(studyId: String, body: JSONValue, actor: String) throws -> JSONValue {
        let reason: String, dateText: String?
        do {
            let r = try ObjectReader(body)
            reason = try r.required("reason", .string(length: 1...500))
            dateText = try r.optional("date", .string(length: 10...10))
            try r.finish()
        } catch { throw DomainError.from(error) }
        let snapshot = rules.snapshot
        let (now, ms) = nowMilliseconds()
        return try write { db in
            let patient = try patient(db, studyId: studyId)
            guard !patient.isWithdrawn else { throw DomainError.conflict("the patient has already withdrawn") }
            let today = today(patient.profile, now: now)
            let date = try dateText.map { text -> LocalDate in
                guard let d = LocalDate(text) else { throw DomainError.invalid("date", "not a date YYYY-MM-DD") }
                guard d <= today else { throw DomainError.invalid("date", "the withdrawal date is in the future") }
                return d
            } ?? today
            try PatientRepository.withdraw(db, id: patient.id, date: date, reason: reason, at: ms)
            try AuditLog.append(db, at: ms, actor: actor, action: .patientWithdraw, subject: patient.studyId,
                                details: ["date": .string(date.description), "reason": .string(reason)])
            let withdrawn = try PatientRepository.load(db, id: patient.id)!
            try outbox?.enqueueBaseline(db, withdrawn, snapshot: snapshot, at: ms)
            return try patientSummary(db, withdrawn, snapshot: snapshot, now: now)
        }
    }
}

/// The merge used by profile updates, and the diff the audit trail records.
enum ProfileMerge {
    /// Objects merge member by member (recursively); any other value replaces.
    static func merge(_ base: JSONValue, _ patch: JSONValue) -> JSONValue {
        guard case .object(var b) = base, case .object(let p) = patch else { return patch }
        for (key, value) in p.members {
            if case .object = value, let existing = b[key], case .object = existing {
                b[key] = merge(existing, value)
            } else {
                b[key] = value
            }
        }
        return .object(b)
    }

    /// `{field: {before, after}}` for every changed leaf (nested fields as `katB.csfLeak`).
    static func diff(_ before: JSONValue, _ after: JSONValue, prefix: String = "") -> JSONValue {
        var out = JSONObject()
        func walk(_ b: JSONValue?, _ a: JSONValue?, _ path: String) {
            if case .object(let bo)? = b, case .object(let ao)? = a {
                for key in Set(bo.keys).union(ao.keys).sorted() { walk(bo[key], ao[key], path.isEmpty ? key : "\(path).\(key)") }
            } else if b != a {
                out[path] = ["before": b ?? .null, "after": a ?? .null]
            }
        }
        walk(before, after, prefix)
        return .object(out)
    }
}
