import HyponaTrackCore
import SQLite

/// `POST /v1/alerts/{id}/acknowledgement`: the escalation stops.
public struct AcknowledgeAlert: Sendable {
    public var alertId: Int64
    public var note: String?
    public var actor: String

    public init(alertId: Int64, note: String? = nil, actor: String) {
        self.alertId = alertId
        self.note = note
        self.actor = actor
    }
}

/// `POST /v1/alerts/{id}/resolution`: closed with a note and, if measured, the sodium, which is
/// also stored as a lab value taken at `sodiumTime` (nil: now).
public struct ResolveAlert: Sendable {
    public var alertId: Int64
    public var note: String
    public var sodium: Double?
    public var sodiumTime: Timestamp?
    public var actor: String

    public init(alertId: Int64, note: String, sodium: Double? = nil, sodiumTime: Timestamp? = nil, actor: String) {
        self.alertId = alertId
        self.note = note
        self.sodium = sodium
        self.sodiumTime = sodiumTime
        self.actor = actor
    }
}

/// Stores a sodium typed at a resolve as a lab value, in the resolving transaction
/// (`CorrectionService.addLabAtResolve`).
typealias LabAtResolve = @Sendable (_ db: Connection, _ patientId: Int64, _ sodium: Double, _ time: Timestamp?, _ actor: String,
                                    _ ms: Int64) throws -> Void

/// `GET /v1/alerts`: newest first; `openOnly`: the unresolved ones; `before`: only alerts with a
/// lower id (the next page); `limit`: at most that many (nil: all). The console's inbox also
/// filters by `levels` and `states` (nil: any) and pages by `offset` (skips that many).
public struct AlertsQuery: Sendable, Equatable {
    public var openOnly: Bool
    public var before: Int64? = nil
    public var limit: Int? = nil
    public var levels: Set<Level>? = nil
    public var states: Set<AlertState>? = nil
    public var offset = 0
    /// Only alerts of the patients this reaches.
    public var scope: SiteScope = .allSites

    /// The page size of the list of all alerts when none is asked for.
    public static let defaultLimit = 500
    public static let limits = 1...5000

    public init(openOnly: Bool, before: Int64? = nil, limit: Int? = nil, levels: Set<Level>? = nil,
                states: Set<AlertState>? = nil, offset: Int = 0) {
        self.openOnly = openOnly
        self.before = before
        self.limit = limit
        self.levels = levels
        self.states = states
        self.offset = max(0, offset)
    }
}

/// A page of alerts; `olderBefore`: when older alerts exist, the `before` that lists them.
public struct AlertPage: Sendable {
    public var alerts: [AlertView]
    public var olderBefore: Int64?
}

/// What staff do with alerts: list, acknowledge, resolve.
public final class AlertService: Sendable {
    let transactions: Transactions
    /// Nil when the daemon runs without alerting (then no alert exists to act on).
    let alerting: Alerting?
    let clock: any ServerClock
    let labAtResolve: LabAtResolve

    init(transactions: Transactions, alerting: Alerting?, clock: any ServerClock,
         labAtResolve: @escaping LabAtResolve = { _, _, _, _, _, _ in }) {
        self.transactions = transactions
        self.alerting = alerting
        self.clock = clock
        self.labAtResolve = labAtResolve
    }

    /// Newest first: every unresolved alert (`openOnly`: never cut short, they are what staff
    /// act on), or a page of all alerts (`AlertsQuery`).
    public func alerts(_ query: AlertsQuery) throws -> AlertPage {
        try transactions.read { db in
            var alerts = try AlertRepository.list(db, openOnly: query.openOnly, before: query.before,
                                                  limit: query.limit.map { $0 + 1 }, levels: query.levels,
                                                  states: query.states, offset: query.offset, scope: query.scope)
            guard let limit = query.limit, alerts.count > limit else { return AlertPage(alerts: alerts, olderBefore: nil) }
            alerts.removeLast(alerts.count - limit)
            return AlertPage(alerts: alerts, olderBefore: alerts.last?.id)
        }
    }

    /// One alert, or nil.
    public func alert(id: Int64) throws -> AlertView? {
        try transactions.read { db in try AlertRepository.view(db, id: id) }
    }

    /// One patient's alerts, newest first.
    public func alerts(studyId: String) throws -> [AlertView] {
        try transactions.read { db in
            guard let patient = try PatientRepository.load(db, studyId: studyId) else {
                throw DomainError.noPatient(studyId)
            }
            return try AlertRepository.views(db, patientId: patient.id).reversed()
        }
    }

    public func acknowledge(_ command: AcknowledgeAlert) throws -> AlertView {
        guard let alerting else { throw DomainError.noAlert(command.alertId) }
        let ms = epochMilliseconds(clock.now())
        return try transactions.write { db in
            try alerting.acknowledge(db, id: command.alertId, by: command.actor, note: command.note, at: ms)
            return try view(db, command.alertId)
        }
    }

    public func resolve(_ command: ResolveAlert) throws -> AlertView {
        guard let alerting else { throw DomainError.noAlert(command.alertId) }
        let ms = epochMilliseconds(clock.now())
        return try transactions.write { db in
            // The nurse's sodium is a lab value of the day it was taken: stored and evaluated
            // first (raising no alert of its own), then the alert is resolved.
            if let sodium = command.sodium, let alert = try AlertRepository.load(db, id: command.alertId), alert.state != .resolved {
                try labAtResolve(db, alert.patientId, sodium, command.sodiumTime, command.actor, ms)
            }
            try alerting.resolve(db, id: command.alertId, by: command.actor, note: command.note, sodium: command.sodium, at: ms)
            return try view(db, command.alertId)
        }
    }

    private func view(_ db: Connection, _ id: Int64) throws -> AlertView {
        guard let view = try AlertRepository.view(db, id: id) else { throw DomainError.noAlert(id) }
        return view
    }
}
