import HTJSON
import HyponaTrackCore
import SQLite

/// `GET /v1/proposals`: nil filters list every status, every patient; newest first, at most
/// `limit`, `before`: only proposals with a lower id (the next page), as `AlertsQuery` pages.
public struct ProposalsQuery: Sendable, Equatable {
    public var status: ProposalStatus?
    public var studyId: String?
    public var before: Int64? = nil
    public var limit: Int = ProposalsQuery.defaultLimit
    /// Only proposals about the patients this reaches.
    public var scope: SiteScope = .allSites

    /// The page size when none is asked for (the alert list's).
    public static let defaultLimit = AlertsQuery.defaultLimit
    public static let limits = AlertsQuery.limits

    public init(status: ProposalStatus? = nil, studyId: String? = nil, before: Int64? = nil, limit: Int = ProposalsQuery.defaultLimit) {
        self.status = status
        self.studyId = studyId
        self.before = before
        self.limit = limit
    }
}

/// A page of proposals. `total`: how many match the filters on every page (a listing that
/// stops at a page says how much it left out); `olderBefore`: when older ones exist, the
/// `before` that lists them.
public struct ProposalPage: Sendable {
    public var proposals: [ProposalView]
    public var total: Int
    public var olderBefore: Int64?
}

/// `POST /v1/proposals/{id}/confirm` and `…/reject`.
public struct DecideProposal: Sendable {
    public var id: Int64
    public var note: String?
    /// Confirm although the value the proposal would replace changed since it was made (the
    /// nurse has seen both side by side).
    public var override: Bool
    public var actor: String

    public init(id: Int64, note: String? = nil, override: Bool, actor: String) {
        self.id = id
        self.note = note
        self.override = override
        self.actor = actor
    }
}

/// Proposals a nurse lists, confirms or rejects. Confirming writes exactly as a staff
/// correction does (the day merge of `DayService.correct`, or a lab value as
/// `CorrectionService.addLab`), in the same transaction that marks the proposal confirmed.
public final class ProposalService: Sendable {
    let context: StudyContext
    let corrections: CorrectionService

    init(context: StudyContext, corrections: CorrectionService) {
        self.context = context
        self.corrections = corrections
    }

    /// A page of proposals, newest first, and how many match in all (one read, so the count
    /// and the page agree).
    public func list(_ query: ProposalsQuery) throws -> ProposalPage {
        try context.read { db in
            let patientId = try query.studyId.map { try context.patient(db, studyId: $0, scope: query.scope).id }
            var found = try ProposalRepository.list(db, status: query.status, patientId: patientId, scope: query.scope, before: query.before,
                                                    limit: query.limit + 1)
            var olderBefore: Int64?
            if found.count > query.limit {
                found.removeLast(found.count - query.limit)
                olderBefore = found.last?.id
            }
            return ProposalPage(proposals: try found.map { p in ProposalView(proposal: p, current: try Self.current(db, p)) },
                                total: try ProposalRepository.count(db, status: query.status, patientId: patientId, scope: query.scope),
                                olderBefore: olderBefore)
        }
    }

    public func confirm(_ command: DecideProposal) throws -> ProposalView {
        let snapshot = context.rules.snapshot
        let (now, ms) = context.nowMilliseconds()
        return try context.write { db in
            let p = try pending(db, command.id)
            let patient = try context.activePatient(db, studyId: p.studyId, withdrawnMessage: "the patient is withdrawn")
            let current = try Self.current(db, p)
            if current != p.replaces && !command.override {
                throw DomainError.conflict("proposal \(p.id) would replace \(Self.text(p.replaces)) but \(p.field.rawValue) on \(p.date) "
                                           + "is now \(Self.text(current)); reject it, or confirm with override to apply "
                                           + "\(Self.text(p.value)) anyway", field: "override", problem: .proposalOutdated)
            }
            var labId: Int64?
            switch p.field {
            case .labSodium:
                let reason = "import proposal \(p.id)" + (command.note.map { ": \($0)" } ?? "")
                if let target = p.targetLabId, try ProposalRepository.liveLabSodium(db, patientId: patient.id, labId: target) != nil {
                    _ = try corrections.deleteLab(db, patient, labId: target, reason: reason, actor: command.actor,
                                                  snapshot: snapshot, at: ms)
                }
                if let value = p.value {
                    let time = p.labTime ?? context.zone(patient.profile).instant(on: p.date, at: LocalTime(hour: 12, minute: 0)!)
                    labId = try corrections.addLab(db, patient, time: time, sodium: value, actor: command.actor,
                                                   snapshot: snapshot, at: ms).labId
                }
            default:
                guard let value = p.value else { throw DomainError.conflict("proposal \(p.id) has no value to apply", problem: .proposalWithoutValue) }
                let submit = SubmitDay(patientId: patient.id, date: p.date, patch: p.field.patch(value), correctedBy: command.actor)
                let plan = try SubmissionPlan.make(db, submit, context: context, snapshot: snapshot, now: now)
                try plan.apply(db, context: context, snapshot: snapshot, at: ms)
            }
            try ProposalRepository.decide(db, id: p.id, status: .confirmed, by: command.actor, note: command.note, labId: labId, at: ms)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .proposalConfirm, subject: p.studyId,
                                details: Self.auditDetails(p, note: command.note, current: current, override: command.override))
            let decided = try ProposalRepository.load(db, id: p.id) ?? p
            return ProposalView(proposal: decided, current: try Self.current(db, decided))
        }
    }

    public func reject(_ command: DecideProposal) throws -> ProposalView {
        let (_, ms) = context.nowMilliseconds()
        return try context.write { db in
            let p = try pending(db, command.id)
            try ProposalRepository.decide(db, id: p.id, status: .rejected, by: command.actor, note: command.note, at: ms)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .proposalReject, subject: p.studyId,
                                details: Self.auditDetails(p, note: command.note, current: try Self.current(db, p), override: false))
            let decided = try ProposalRepository.load(db, id: p.id) ?? p
            return ProposalView(proposal: decided, current: try Self.current(db, decided))
        }
    }

    private func pending(_ db: Connection, _ id: Int64) throws -> Proposal {
        guard let p = try ProposalRepository.load(db, id: id) else { throw DomainError.noProposal(id) }
        guard p.status == .pending else {
            throw DomainError.conflict("proposal \(id) is already \(p.status.rawValue)", problem: .proposalAlready(id: id, p.status))
        }
        return p
    }

    /// The value in force now for what the proposal would change.
    static func current(_ db: Connection, _ p: Proposal) throws -> Double? {
        if p.field == .labSodium {
            // Once confirmed, the value in force is the lab row the confirmation stored (if any).
            guard let target = p.status == .confirmed ? (p.labId ?? p.targetLabId) : p.targetLabId else { return nil }
            return try ProposalRepository.liveLabSodium(db, patientId: p.patientId, labId: target)
        }
        return p.field.value(on: try DayRepository.load(db, patientId: p.patientId, date: p.date))
    }

    static func text(_ v: Double?) -> String {
        guard let v else { return "nothing" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    static func auditDetails(_ p: Proposal, note: String?, current: Double?, override: Bool) -> AuditDetails.ProposalDecided {
        AuditDetails.ProposalDecided(proposalId: p.id, source: p.source.rawValue, field: p.field.rawValue, date: p.date.description,
                                     value: p.value, replaces: p.replaces, current: current, note: note, override: override ? true : nil)
    }
}
