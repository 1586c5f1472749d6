import HyponaTrackCore
import SQLite

/// `POST /v1/alerts/{id}/acknowledgement`: the escalation stops.
public struct AcknowledgeAlert: Sendable {
    public var alertId: Int64
    public var note: String?
    public var actor: String
}

/// `POST /v1/alerts/{id}/resolution`: closed with a note and, if measured, the sodium.
public struct ResolveAlert: Sendable {
    public var alertId: Int64
    public var note: String
    public var sodium: Double?
    public var actor: String
}

/// What staff do with alerts: list, acknowledge, resolve.
public final class AlertService: Sendable {
    let transactions: Transactions
    /// Nil when the daemon runs without alerting (then no alert exists to act on).
    let alerting: Alerting?
    let clock: any ServerClock

    init(transactions: Transactions, alerting: Alerting?, clock: any ServerClock) {
        self.transactions = transactions
        self.alerting = alerting
        self.clock = clock
    }

    /// Newest first; `openOnly`: not yet resolved.
    public func alerts(openOnly: Bool) throws -> [AlertView] {
        try transactions.read { db in try AlertRepository.list(db, openOnly: openOnly) }
    }

    /// One alert, or nil.
    public func alert(id: Int64) throws -> AlertView? {
        try transactions.read { db in try AlertRepository.view(db, id: id) }
    }

    /// One patient's alerts, newest first.
    public func alerts(studyId: String) throws -> [AlertView] {
        try transactions.read { db in
            guard let patient = try PatientRepository.load(db, studyId: studyId) else {
                throw DomainError.notFound("no patient \(studyId)")
            }
            return try AlertRepository.views(db, patientId: patient.id).reversed()
        }
    }

    public func acknowledge(_ command: AcknowledgeAlert) throws -> AlertView {
        guard let alerting else { throw DomainError.notFound("no alert \(command.alertId)") }
        let ms = epochMilliseconds(clock.now())
        return try transactions.write { db in
            try alerting.acknowledge(db, id: command.alertId, by: command.actor, note: command.note, at: ms)
            return try view(db, command.alertId)
        }
    }

    public func resolve(_ command: ResolveAlert) throws -> AlertView {
        guard let alerting else { throw DomainError.notFound("no alert \(command.alertId)") }
        let ms = epochMilliseconds(clock.now())
        return try transactions.write { db in
            try alerting.resolve(db, id: command.alertId, by: command.actor, note: command.note, sodium: command.sodium, at: ms)
            return try view(db, command.alertId)
        }
    }

    private func view(_ db: Connection, _ id: Int64) throws -> AlertView {
        guard let view = try AlertRepository.view(db, id: id) else { throw DomainError.notFound("no alert \(id)") }
        return view
    }
}
