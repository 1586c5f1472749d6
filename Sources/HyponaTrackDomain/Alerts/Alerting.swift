import Foundation
import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// The alert lifecycle: open on a yellow or red, worsen (level up or a new red code) on the same
/// alert with its ladder restarted, never close by improvement; staff acknowledge and resolve.
/// Every transition queues its events, its audit row and (sync on) its REDCap `alert_log` row
/// in the same transaction.
final class Alerting: Sendable {
    let ladder: EscalationLadder
    let hooks: [HookConfiguration]
    /// The patient's risk class under the current rules (for event bodies).
    let riskClass: @Sendable (PatientRecord) -> String
    /// The REDCap outbox; nil while the sync is off (then nothing is queued).
    let outbox: SyncOutbox?

    init(ladder: EscalationLadder, hooks: [HookConfiguration], outbox: SyncOutbox? = nil,
         riskClass: @escaping @Sendable (PatientRecord) -> String) {
        self.ladder = ladder
        self.hooks = hooks
        self.riskClass = riskClass
        self.outbox = outbox
    }

    /// Queues the alert's `alert_log` row (sync on), inside the caller's transaction.
    private func queueAlertLog(_ db: Connection, id: Int64, at ms: Int64) throws {
        try outbox?.enqueueAlertLog(db, alertId: id, at: ms)
    }

    // MARK: raising

    /// A stored evaluation: yellow or red raises (or worsens) the day's `evaluation` alert.
    func evaluationRecorded(_ db: Connection, _ patient: PatientRecord, _ e: Evaluation, at ms: Int64) throws {
        guard let level = e.level, level >= .yellow else { return }
        try raise(db, patient, date: e.date, kind: .evaluation, level: level, reasons: e.reasons.map(StoredReason.init),
                  pod: e.pod, at: ms)
    }

    /// A finding for `date` (docs/product.md, third round, C, "Alerts as episodes"): it joins
    /// the patient's unresolved alert of this kind, or opens one. Joining a day at the same or
    /// a lower level adds it to the alert's days (no hook event, no new ladder); after a gap of
    /// at least one day without a finding, an acknowledged alert tells tier 0 again
    /// (`alert.updated`). A worse level, or a red code the alert did not have, worsens it as
    /// before: acknowledgement needed again, `alert.worsened`, the ladder from tier 0. A day the
    /// alert already covers changes it only when it got worse. After a resolve the next
    /// finding opens a new alert, but re-evaluating a day the resolved alert covered, at the
    /// same or a lower level, is no finding.
    func raise(_ db: Connection, _ patient: PatientRecord, date: LocalDate, kind: AlertKind, level: Level,
               reasons: [StoredReason], pod: Int, at ms: Int64) throws {
        let day = AlertRepository.CoveredDay(date: date, level: level, reasons: reasons, pod: pod)
        guard var live = try AlertRepository.live(db, patientId: patient.id, kind: kind) else {
            return try open(db, patient, day, kind: kind, at: ms)
        }
        let days = try AlertRepository.days(db, alertId: live.id)
        let held = days[date]
        if let held, level <= held.level, live.isWorsened(by: level, reasons) == false {
            // A day it covers, no worse than it was: at most reasons it did not list yet.
            let merged = StoredReason.merge(held.reasons, reasons)
            if merged != held.reasons {
                try AlertRepository.cover(db, alertId: live.id, AlertRepository.CoveredDay(date: date, level: held.level, reasons: merged,
                                                                                           pod: held.pod), at: ms)
                try AlertRepository.refreshSpan(db, alertId: live.id, at: ms)
                try queueAlertLog(db, id: live.id, at: ms)
            }
            return
        }
        var covered = day
        if let held { covered.level = max(level, held.level); covered.reasons = StoredReason.merge(held.reasons, reasons) }
        try AlertRepository.cover(db, alertId: live.id, covered, at: ms)
        if live.isWorsened(by: level, reasons) {
            // The span, level and union of the days' reasons follow in refreshSpan.
            live.level = max(level, live.level)
            live.reasons = StoredReason.merge(live.reasons, reasons)
            live.ladder += 1
            live.ladderStartedAt = ms
            try AlertRepository.worsen(db, live, at: ms)
            try AlertRepository.refreshSpan(db, alertId: live.id, at: ms)
            try queueAlertLog(db, id: live.id, at: ms)
            try AuditLog.append(db, at: ms, actor: "system", action: .alertWorsened, subject: patient.studyId,
                                details: AuditDetails.AlertWorsened(alertId: live.id, level: live.level.rawValue, kind: kind.rawValue,
                                                                    date: date.description))
            try startLadder(db, live, firstType: .alertWorsened, at: ms)
            return
        }
        try AlertRepository.refreshSpan(db, alertId: live.id, at: ms)
        try queueAlertLog(db, id: live.id, at: ms)
        guard held == nil, live.state == .acknowledged else { return }
        // A new day joined an acknowledged alert: the board says so, and after a gap tier 0 hears it.
        try AlertRepository.markNewData(db, alertId: live.id, at: ms)
        if date > live.lastDate.adding(days: 1) { try notifyTierZero(db, live, patient: patient, at: ms) }
    }

    private func open(_ db: Connection, _ patient: PatientRecord, _ day: AlertRepository.CoveredDay, kind: AlertKind, at ms: Int64) throws {
        if let resolved = try AlertRepository.lastResolved(db, patientId: patient.id, covering: day.date, kind: kind),
           let held = try AlertRepository.days(db, alertId: resolved.id)[day.date],
           day.level <= held.level, StoredReason.codes(day.reasons, at: .red).isSubset(of: resolved.redCodes) {
            return
        }
        let id = try AlertRepository.open(db, patientId: patient.id, date: day.date, kind: kind, level: day.level, reasons: day.reasons,
                                          pod: day.pod, at: ms)
        try AuditLog.append(db, at: ms, actor: "system", action: .alertOpen, subject: patient.studyId,
                            details: AuditDetails.AlertOpened(alertId: id, level: day.level.rawValue, kind: kind.rawValue,
                                                              date: day.date.description))
        try queueAlertLog(db, id: id, at: ms)
        let alert = try AlertRepository.load(db, id: id)!
        try startLadder(db, alert, firstType: .alertOpened, at: ms)
    }

    /// `alert.updated` to the hooks of tier 0 of the alert's level; no new ladder.
    private func notifyTierZero(_ db: Connection, _ alert: Alert, patient: PatientRecord, at ms: Int64) throws {
        let site = try siteCode(db, patient)
        guard let current = try AlertRepository.load(db, id: alert.id), let tier = ladder.tiers(for: current.level, site: site).first else {
            return
        }
        let hookNames = heard(tier.hooks, site: site)
        try AlertRepository.addRecipients(db, alertId: current.id, hooks: hookNames)
        try HookOutbox.enqueue(db, type: .alertUpdated, data: eventData(current, patient: patient, site: site, tier: 0), hooks: hookNames,
                               at: ms)
    }

    /// Schedules the level's tiers of the patient's site's ladder from the ladder start and
    /// fires those already due (tier 0).
    private func startLadder(_ db: Connection, _ alert: Alert, firstType: HookEventType, at ms: Int64) throws {
        let site = try SiteRepository.patientSiteCode(db, patientId: alert.patientId)
        try schedule(db, alert, tiers: ladder.tiers(for: alert.level, site: site))
        _ = try fireDue(db, now: ms, alertId: alert.id, firstType: firstType)
    }

    private func schedule(_ db: Connection, _ alert: Alert, tiers: [EscalationLadder.Tier], skipping fired: Set<Int> = []) throws {
        for (tier, step) in tiers.enumerated() where !fired.contains(tier) {
            let due = alert.ladderStartedAt + Int64((step.afterMinutes * 60_000).rounded())
            try AlertRepository.scheduleStep(db, alertId: alert.id, ladder: alert.ladder, tier: tier, dueAt: due)
        }
    }

    /// A transfer (docs/product.md, settled S): the tiers of the patient's unresolved alerts not
    /// yet fired are planned again on the new site's ladder, from the same ladder start; those
    /// already due fire now. Tiers that fired stay fired (their hooks heard it).
    func replan(_ db: Connection, patientId: Int64, site: String, at ms: Int64) throws {
        for alert in try AlertRepository.unresolved(db, patientId: patientId) {
            let fired = try AlertRepository.dropUnfiredSteps(db, alertId: alert.id, ladder: alert.ladder)
            try schedule(db, alert, tiers: ladder.tiers(for: alert.level, site: site), skipping: fired)
            _ = try fireDue(db, now: ms, alertId: alert.id)
        }
    }

    /// The patient's site's code (nil only for a site that no longer exists, which cannot hold patients).
    func siteCode(_ db: Connection, _ patient: PatientRecord) throws -> String? {
        try SiteRepository.patientSiteCode(db, patientId: patient.id)
    }

    /// The hooks of a tier that hear events about the site's patients (`hooks[].sites`).
    func heard(_ names: [String], site: String?) -> [String] {
        guard let site else { return names }
        return names.filter { name in hooks.first { $0.name == name }?.hears(site: site) ?? true }
    }

    /// Fires every due, unfired step of the current ladder of alerts still open (tier 0 always
    /// fires; a later tier only while unacknowledged). Each fires once: `fired_at` is set in the
    /// transaction that queues its event.
    @discardableResult
    func fireDue(_ db: Connection, now ms: Int64, alertId: Int64? = nil, firstType: HookEventType = .alertOpened) throws -> Int {
        var fired = 0
        for step in try AlertRepository.dueSteps(db, now: ms, alertId: alertId) {
            guard let alert = try AlertRepository.load(db, id: step.alertId),
                  let patient = try PatientRepository.load(db, id: alert.patientId) else { continue }
            try AlertRepository.markFired(db, step, at: ms)
            let site = try siteCode(db, patient)
            let tiers = ladder.tiers(for: alert.level, site: site)
            guard step.tier < tiers.count else { continue }
            let type: HookEventType = step.tier == 0 ? (alert.ladder > 1 ? .alertWorsened : firstType) : .alertEscalated
            let hookNames = heard(tiers[step.tier].hooks, site: site)
            try AlertRepository.addRecipients(db, alertId: alert.id, hooks: hookNames)
            try HookOutbox.enqueue(db, type: type, data: eventData(alert, patient: patient, site: site, tier: step.tier), hooks: hookNames,
                                   at: ms)
            if step.tier > 0 {
                try AuditLog.append(db, at: ms, actor: "system", action: .alertEscalated, subject: patient.studyId,
                                    details: AuditDetails.AlertEscalated(alertId: alert.id, tier: step.tier, hooks: hookNames))
            }
            fired += 1
        }
        return fired
    }

    // MARK: staff transitions

    func acknowledge(_ db: Connection, id: Int64, by actor: String, note: String?, at ms: Int64) throws {
        guard let alert = try AlertRepository.load(db, id: id) else { throw DomainError.noAlert(id) }
        // An acknowledged alert that a later day joined is acknowledged again (that clears "new
        // data since acknowledged"); otherwise only an open one.
        guard alert.state == .open || (alert.state == .acknowledged && alert.newDataAt != nil) else {
            throw DomainError.conflict("alert \(id) is already \(alert.state.rawValue)", problem: .alertAlready(id: id, alert.state))
        }
        try AlertRepository.acknowledge(db, id: id, by: actor, role: try staffRole(db, actor), note: note, at: ms)
        try queueAlertLog(db, id: id, at: ms)
        let patient = try PatientRepository.load(db, id: alert.patientId)
        try notifyRecipients(db, id: id, type: .alertAcknowledged, action: .acknowledged(by: actor, note: note), at: ms)
        try AuditLog.append(db, at: ms, actor: actor, action: .alertAcknowledge, subject: patient?.studyId ?? "?",
                            details: AuditDetails.AlertAcknowledged(alertId: id, note: note))
    }

    func resolve(_ db: Connection, id: Int64, by actor: String, note: String, sodium: Double?, at ms: Int64) throws {
        guard let alert = try AlertRepository.load(db, id: id) else { throw DomainError.noAlert(id) }
        guard alert.state != .resolved else {
            throw DomainError.conflict("alert \(id) is already resolved", problem: .alertAlready(id: id, .resolved))
        }
        try AlertRepository.resolve(db, id: id, by: actor, note: note, sodium: sodium, at: ms)
        try queueAlertLog(db, id: id, at: ms)
        let patient = try PatientRepository.load(db, id: alert.patientId)
        try notifyRecipients(db, id: id, type: .alertResolved, action: .resolved(by: actor, note: note, sodium: sodium), at: ms)
        try AuditLog.append(db, at: ms, actor: actor, action: .alertResolve, subject: patient?.studyId ?? "?",
                            details: AuditDetails.AlertResolved(alertId: id, note: note, sodium: sodium))
    }

    /// The role of the staff member behind an audit actor (`staff:<name>`), as the staff table
    /// has it now; nil for any other actor or a name not found.
    private func staffRole(_ db: Connection, _ actor: String) throws -> Role? {
        guard let name = Principal.staffName(inActor: actor) else { return nil }
        return try StaffRepository.find(db, name: name)?.role
    }

    private func notifyRecipients(_ db: Connection, id: Int64, type: HookEventType, action: HookEventData.Alert.StaffAction,
                                  at ms: Int64) throws {
        guard let alert = try AlertRepository.load(db, id: id), let patient = try PatientRepository.load(db, id: alert.patientId) else { return }
        let hooks = try AlertRepository.recipients(db, alertId: id)
        guard !hooks.isEmpty else { return }
        var data = eventData(alert, patient: patient, site: try siteCode(db, patient), tier: nil)
        data.staffAction = action
        try HookOutbox.enqueue(db, type: type, data: data, hooks: hooks, at: ms)
    }

    /// The event body hooks receive (reasons rounded for display, as the API shows them).
    func eventData(_ alert: Alert, patient: PatientRecord, site: String?, tier: Int?) -> HookEventData.Alert {
        HookEventData.Alert(alertId: alert.id, studyId: patient.studyId, site: site ?? "", date: alert.date.description,
                            lastDate: alert.lastDate.description, pod: alert.pod,
                            level: alert.level.rawValue, kind: alert.kind.rawValue, reasons: alert.reasons.map(ReasonDisplay.init),
                            riskClass: riskClass(patient), tier: tier, state: alert.state.rawValue)
    }
}
