import HTJSON
import HyponaTrackCore
import SQLite

/// The contact log (docs/product.md, "Contact log"): staff record each attempt to reach a
/// patient, about one of their alerts or not. A contact about an open alert acknowledges it in
/// the same transaction (the acknowledgement's own audit row and hook events, as
/// `POST /v1/alerts/{id}/acknowledgement`), and the alert's REDCap `alert_log` row is queued
/// again (its contact attempts and first reach). Durable before it is answered.
public final class ContactService: Sendable {
    let context: StudyContext

    init(context: StudyContext) { self.context = context }

    public func add(_ command: AddContact) throws -> ContactAdded {
        let ms = epochMilliseconds(context.clock.now())
        return try context.write { db in
            let patient = try context.patient(db, studyId: command.studyId)
            var alertToAcknowledge: Int64?
            if let alertId = command.alertId {
                // Another patient's alert is as unknown here as one that does not exist.
                guard let alert = try AlertRepository.load(db, id: alertId), alert.patientId == patient.id else {
                    throw DomainError.notFound("patient \(patient.studyId) has no alert \(alertId)",
                                               missing: .alertOfPatient(id: alertId, studyId: patient.studyId))
                }
                // Unhandled: open, or acknowledged before a later day joined it (new data since).
                let unhandled = alert.state == .open || (alert.state == .acknowledged && alert.newDataAt != nil)
                if unhandled, context.alerting != nil { alertToAcknowledge = alertId }
            }
            let id = try ContactRepository.insert(db, patientId: patient.id, alertId: command.alertId, outcome: command.outcome,
                                                  note: command.note, by: command.actor, at: ms)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .contactAdd, subject: patient.studyId,
                                details: ContactAudit.added(id: id, command, acknowledged: alertToAcknowledge != nil))
            if let alertId = alertToAcknowledge, let alerting = context.alerting {
                try alerting.acknowledge(db, id: alertId, by: command.actor, note: command.note, at: ms)
            }
            if let alertId = command.alertId { try context.outbox?.enqueueAlertLog(db, alertId: alertId, at: ms) }
            guard let contact = try ContactRepository.load(db, id: id) else { throw StoreCorruption("contact \(id) was not stored") }
            return ContactAdded(contact: contact, acknowledgedAlert: alertToAcknowledge != nil)
        }
    }

    /// One patient's contacts, newest first.
    public func contacts(studyId: String) throws -> [ContactRecord] {
        try context.read { db in
            let patient = try context.patient(db, studyId: studyId)
            return try ContactRepository.list(db, patientId: patient.id).reversed()
        }
    }
}

/// The contact log's audit payloads, in one place.
enum ContactAudit {
    /// `contact.add`: which contact, its outcome and alert, the note, and whether it acknowledged
    /// the alert (whose `alert.acknowledge` row follows).
    struct Added: Encodable, Sendable {
        let contactId: Int64
        let outcome: String
        let alertId: Int64?
        let note: String?
        let acknowledged: Bool
    }

    static func added(id: Int64, _ c: AddContact, acknowledged: Bool) -> Added {
        Added(contactId: id, outcome: c.outcome.rawValue, alertId: c.alertId, note: c.note, acknowledged: acknowledged)
    }
}
