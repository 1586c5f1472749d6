import Foundation
import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// The alert lifecycle (product.md, "Alerts"): open on a yellow or red, worsen (level up or a new
/// red code) on the same alert with its ladder restarted, never close by improvement; staff
/// acknowledge and resolve. Every transition queues its events in the same transaction.
final class Alerting: Sendable {
    let ladder: EscalationLadder
    let hooks: [HookConfiguration]
    /// The patient's risk class under the current rules (for event bodies).
    let riskClass: @Sendable (PatientRecord) -> String

    init(ladder: EscalationLadder, hooks: [HookConfiguration], riskClass: @escaping @Sendable (PatientRecord) -> String) {
        self.ladder = ladder
        self.hooks = hooks
        self.riskClass = riskClass
    }

    struct Alert: Sendable {
        var id: Int64
        var patientId: Int64
        var date: String
        var kind: String
        var level: String
        var reasons: JSONValue
        var pod: Int
        var state: String
        var ladder: Int
        var ladderStartedAt: Int64

        var redCodes: Set<String> { Alerting.codes(reasons, level: "red") }
    }

    // MARK: raising

    /// A stored evaluation: yellow or red raises (or worsens) the day's `evaluation` alert.
    func evaluationRecorded(_ db: Connection, _ patient: PatientRecord, _ e: Evaluation, at ms: Int64) throws {
        guard e.level >= .yellow else { return }
        try raise(db, patient, date: e.date.description, kind: "evaluation", level: e.level.rawValue,
                  reasons: EvaluationJSON.reasons(e), pod: e.pod, riskClass: e.risk.riskClass.rawValue, at: ms)
    }

    func raise(_ db: Connection, _ patient: PatientRecord, date: String, kind: String, level: String, reasons: JSONValue,
               pod: Int, riskClass: String, at ms: Int64) throws {
        if var live = try AlertRepository.live(db, patientId: patient.id, date: date, kind: kind) {
            let higher = rank(level) > rank(live.level)
            let newRed = Self.codes(reasons, level: "red").subtracting(live.redCodes)
            let merged = Self.merge(live.reasons, reasons)
            guard higher || !newRed.isEmpty else {
                if merged != live.reasons { try AlertRepository.updateReasons(db, id: live.id, reasons: merged, at: ms) }
                return
            }
            live.level = higher ? level : live.level
            live.reasons = merged
            live.ladder += 1
            live.ladderStartedAt = ms
            try AlertRepository.worsen(db, live, at: ms)
            try AuditLog.append(db, at: ms, actor: "system", action: "alert.worsened", subject: patient.studyId,
                                details: ["alertId": .number(Double(live.id)), "level": .string(live.level), "kind": .string(kind)])
            try startLadder(db, live, patient: patient, riskClass: riskClass, firstType: "alert.worsened", at: ms)
            return
        }
        if let resolved = try AlertRepository.lastResolved(db, patientId: patient.id, date: date, kind: kind) {
            // After a resolve only a worsening opens a new alert for the day.
            let higher = rank(level) > rank(resolved.level)
            let newRed = Self.codes(reasons, level: "red").subtracting(resolved.redCodes)
            guard higher || !newRed.isEmpty else { return }
        }
        let id = try AlertRepository.open(db, patientId: patient.id, date: date, kind: kind, level: level, reasons: reasons, pod: pod, at: ms)
        try AuditLog.append(db, at: ms, actor: "system", action: "alert.open", subject: patient.studyId,
                            details: ["alertId": .number(Double(id)), "level": .string(level), "kind": .string(kind), "date": .string(date)])
        let alert = try AlertRepository.load(db, id: id)!
        try startLadder(db, alert, patient: patient, riskClass: riskClass, firstType: "alert.opened", at: ms)
    }

    /// Schedules the level's tiers from the ladder start and fires those already due (tier 0).
    private func startLadder(_ db: Connection, _ alert: Alert, patient: PatientRecord, riskClass: String, firstType: String,
                             at ms: Int64) throws {
        for (tier, step) in ladder.tiers(for: alert.level).enumerated() {
            let due = alert.ladderStartedAt + Int64((step.afterMinutes * 60_000).rounded())
            try db.execute("INSERT OR IGNORE INTO escalation_steps (alert_id, ladder, tier, due_at) VALUES (?, ?, ?, ?)",
                           [alert.id, alert.ladder, tier, due])
        }
        _ = try fireDue(db, now: ms, alertId: alert.id, firstType: firstType)
    }

    /// Fires every due, unfired step of the current ladder of alerts still open (tier 0 always
    /// fires; a later tier only while unacknowledged). Each fires once: `fired_at` is set in the
    /// transaction that queues its event.
    @discardableResult
    func fireDue(_ db: Connection, now ms: Int64, alertId: Int64? = nil, firstType: String = "alert.opened") throws -> Int {
        let filter = alertId == nil ? "" : " AND a.id = \(alertId!)"
        let due = try db.query("""
            SELECT s.alert_id, s.ladder, s.tier FROM escalation_steps s JOIN alerts a ON a.id = s.alert_id
            WHERE s.fired_at IS NULL AND s.due_at <= ? AND s.ladder = a.ladder
              AND (s.tier = 0 OR a.state = 'open') AND a.state != 'resolved'\(filter)
            ORDER BY s.due_at, s.tier
            """, [ms])
        var fired = 0
        for row in due {
            let id = try row.int64(0), ladderNumber = try row.int(1), tier = try row.int(2)
            guard let alert = try AlertRepository.load(db, id: id),
                  let patient = try PatientRepository.load(db, id: alert.patientId) else { continue }
            try db.execute("UPDATE escalation_steps SET fired_at = ? WHERE alert_id = ? AND ladder = ? AND tier = ?",
                           [ms, id, ladderNumber, tier])
            let tiers = ladder.tiers(for: alert.level)
            guard tier < tiers.count else { continue }
            let type = tier == 0 ? (alert.ladder > 1 ? "alert.worsened" : firstType) : "alert.escalated"
            let hookNames = tiers[tier].hooks
            for hook in hookNames {
                try db.execute("INSERT OR IGNORE INTO alert_recipients (alert_id, hook) VALUES (?, ?)", [id, hook])
            }
            try HookOutbox.enqueue(db, type: type, data: eventData(alert, patient: patient, tier: tier), hooks: hookNames, at: ms)
            if tier > 0 {
                try AuditLog.append(db, at: ms, actor: "system", action: "alert.escalated", subject: patient.studyId,
                                    details: ["alertId": .number(Double(id)), "tier": .int(tier), "hooks": .array(hookNames.map { JSONValue.string($0) })])
            }
            fired += 1
        }
        return fired
    }

    // MARK: staff transitions

    func acknowledge(_ db: Connection, id: Int64, by actor: String, note: String?, at ms: Int64) throws -> Alert {
        guard let alert = try AlertRepository.load(db, id: id) else { throw DomainError.notFound("no alert \(id)") }
        guard alert.state == "open" else { throw DomainError.conflict("alert \(id) is already \(alert.state)") }
        try db.execute("""
            UPDATE alerts SET state = 'acknowledged', acknowledged_at = ?, acknowledged_by = ?, acknowledge_note = ?, updated_at = ?
            WHERE id = ?
            """, [ms, actor, note, ms, id])
        try notifyRecipients(db, id: id, type: "alert.acknowledged", extra: ["by": .string(actor), "note": .string(note)], at: ms)
        try AuditLog.append(db, at: ms, actor: actor, action: "alert.acknowledge", subject: try studyId(db, alert),
                            details: ["alertId": .number(Double(id)), "note": .string(note)])
        return try AlertRepository.load(db, id: id)!
    }

    func resolve(_ db: Connection, id: Int64, by actor: String, note: String, sodium: Double?, at ms: Int64) throws -> Alert {
        guard let alert = try AlertRepository.load(db, id: id) else { throw DomainError.notFound("no alert \(id)") }
        guard alert.state != "resolved" else { throw DomainError.conflict("alert \(id) is already resolved") }
        try db.execute("""
            UPDATE alerts SET state = 'resolved', resolved_at = ?, resolved_by = ?, resolve_note = ?, resolve_sodium = ?, updated_at = ?
            WHERE id = ?
            """, [ms, actor, note, sodium, ms, id])
        try notifyRecipients(db, id: id, type: "alert.resolved",
                             extra: ["by": .string(actor), "note": .string(note), "sodium": .double(sodium)], at: ms)
        try AuditLog.append(db, at: ms, actor: actor, action: "alert.resolve", subject: try studyId(db, alert),
                            details: ["alertId": .number(Double(id)), "note": .string(note), "sodium": .double(sodium)])
        return try AlertRepository.load(db, id: id)!
    }

    private func notifyRecipients(_ db: Connection, id: Int64, type: String, extra: [String: JSONValue], at ms: Int64) throws {
        guard let alert = try AlertRepository.load(db, id: id), let patient = try PatientRepository.load(db, id: alert.patientId) else { return }
        let hooks = try db.query("SELECT hook FROM alert_recipients WHERE alert_id = ? ORDER BY hook", [id]).map { try $0.string(0) }
        guard !hooks.isEmpty else { return }
        var data = eventData(alert, patient: patient, tier: nil)
        if case .object(var o) = data {
            for (k, v) in extra { o[k] = v }
            data = .object(o)
        }
        try HookOutbox.enqueue(db, type: type, data: data, hooks: hooks, at: ms)
    }

    private func studyId(_ db: Connection, _ alert: Alert) throws -> String {
        try PatientRepository.load(db, id: alert.patientId)?.studyId ?? "?"
    }

    func eventData(_ alert: Alert, patient: PatientRecord, tier: Int?) -> JSONValue {
        ["alertId": .number(Double(alert.id)), "studyId": .string(patient.studyId), "date": .string(alert.date),
         "pod": .int(alert.pod), "level": .string(alert.level), "kind": .string(alert.kind), "reasons": alert.reasons,
         "riskClass": .string(riskClass(patient)), "tier": tier.map { .int($0) } ?? .null, "state": .string(alert.state)]
    }

    // MARK: helpers

    func rank(_ level: String) -> Int { level == "red" ? 2 : level == "yellow" ? 1 : 0 }

    static func codes(_ reasons: JSONValue, level: String) -> Set<String> {
        guard case .array(let items) = reasons else { return [] }
        return Set(items.compactMap { item in
            guard case .object(let o) = item, o["level"] == .string(level), case .string(let c)? = o["code"] else { return nil }
            return c
        })
    }

    /// Union of reasons by code, keeping each code at its highest level.
    static func merge(_ a: JSONValue, _ b: JSONValue) -> JSONValue {
        guard case .array(let left) = a, case .array(let right) = b else { return b }
        var byCode: [(String, JSONValue)] = []
        func rank(_ v: JSONValue) -> Int {
            guard case .object(let o) = v, case .string(let l)? = o["level"] else { return 0 }
            return l == "red" ? 3 : l == "yellow" ? 2 : 1
        }
        for item in left + right {
            guard case .object(let o) = item, case .string(let code)? = o["code"] else { continue }
            if let i = byCode.firstIndex(where: { $0.0 == code }) {
                if rank(item) > rank(byCode[i].1) { byCode[i].1 = item }
            } else {
                byCode.append((code, item))
            }
        }
        return .array(byCode.map(\.1))
    }
}
