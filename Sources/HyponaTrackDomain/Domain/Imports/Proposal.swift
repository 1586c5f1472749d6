import HyponaTrackCore
import Imports

/// Where an imported value came from.
public enum ProposalSource: String, Sendable, CaseIterable {
    case fhir
    case appleHealth = "apple-health"
}

/// docs/product.md, "Import details": a proposal is pending until a nurse confirms or rejects it;
/// a newer import of the same value supersedes it; `entered-in-error` withdraws it.
public enum ProposalStatus: String, Sendable, CaseIterable {
    case pending, confirmed, rejected, superseded, withdrawn
}

/// The day fields an import may propose, named as in the day API, plus a lab sodium value.
public enum ProposalField: String, Sendable, CaseIterable {
    case weightMorningKg, weightEveningKg, steps, hrvSdnnMs, sleepMinutes, restingHeartRate, labSodium

    /// The value range a proposal must fall in (the same ranges the day API and the lab route use).
    public func accepts(_ value: Double) -> Bool {
        switch self {
        case .weightMorningKg, .weightEveningKg: return ValueRanges.weightKg.contains(value)
        case .steps: return value == value.rounded() && ValueRanges.steps.contains(Int(value))
        case .hrvSdnnMs: return ValueRanges.hrvMs.contains(value)
        case .sleepMinutes: return value == value.rounded() && ValueRanges.sleepMinutes.contains(Int(value))
        case .restingHeartRate: return value == value.rounded() && ValueRanges.restingHeartRate.contains(Int(value))
        case .labSodium: return ValueRanges.sodium.contains(value)
        }
    }

    /// The field's value on a stored day (nil: not recorded). Lab sodium is a list, not a field.
    func value(on day: DailyEntry) -> Double? {
        switch self {
        case .weightMorningKg: return day.weightMorningKg
        case .weightEveningKg: return day.weightEveningKg
        case .steps: return day.steps.map(Double.init)
        case .hrvSdnnMs: return day.hrvSdnnMs
        case .sleepMinutes: return day.sleepMinutes.map(Double.init)
        case .restingHeartRate: return day.restingHeartRate.map(Double.init)
        case .labSodium: return nil
        }
    }

    /// The patch that sets this field to `value` (a day field; never lab sodium).
    func patch(_ value: Double) -> DayPatch {
        var p = DayPatch()
        switch self {
        case .weightMorningKg: p.weightMorningKg = .set(value)
        case .weightEveningKg: p.weightEveningKg = .set(value)
        case .steps: p.steps = .set(Int(value))
        case .hrvSdnnMs: p.hrvSdnnMs = .set(value)
        case .sleepMinutes: p.sleepMinutes = .set(Int(value))
        case .restingHeartRate: p.restingHeartRate = .set(Int(value))
        case .labSodium: break
        }
        return p
    }
}

/// One stored proposal (docs/product.md, "Import details").
public struct Proposal: Sendable, Equatable {
    public var id: Int64
    public var patientId: Int64
    public var studyId: String
    public var source: ProposalSource
    public var field: ProposalField
    public var date: LocalDate
    /// nil: a deletion proposal (the value in `replaces` was entered in error).
    public var value: Double?
    /// The value in force when the proposal was made (nil: none).
    public var replaces: Double?
    public var status: ProposalStatus
    public var sourceKey: String?
    public var labTime: Timestamp?
    public var targetLabId: Int64?
    public var labId: Int64?
    public var createdAt: Int64
    public var createdBy: String
    public var decidedAt: Int64?
    public var decidedBy: String?
    public var note: String?
    /// The version of the Observation a lab proposal was made from (empty: unknown).
    public var sourceVersion = SodiumObservation.Version()

    public init(id: Int64, patientId: Int64, studyId: String, source: ProposalSource, field: ProposalField, date: LocalDate,
                value: Double?, replaces: Double?, status: ProposalStatus, sourceKey: String? = nil, labTime: Timestamp? = nil,
                targetLabId: Int64? = nil, labId: Int64? = nil, createdAt: Int64, createdBy: String, decidedAt: Int64? = nil,
                decidedBy: String? = nil, note: String? = nil) {
        self.id = id
        self.patientId = patientId
        self.studyId = studyId
        self.source = source
        self.field = field
        self.date = date
        self.value = value
        self.replaces = replaces
        self.status = status
        self.sourceKey = sourceKey
        self.labTime = labTime
        self.targetLabId = targetLabId
        self.labId = labId
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.decidedAt = decidedAt
        self.decidedBy = decidedBy
        self.note = note
    }
}

/// A proposal as listed: with the value in force now, so a later patient entry that differs
/// from what the proposal would replace is shown beside it.
public struct ProposalView: Sendable {
    public var proposal: Proposal
    public var current: Double?
    /// Pending, and what it would replace is no longer what is stored.
    public var conflict: Bool { proposal.status == .pending && current != proposal.replaces }
}

/// What an import did: the proposals it made, what it withdrew, what it skipped and why.
public struct ImportReport: Sendable, Equatable {
    public typealias Reason = RefusalReason
    public typealias Refusal = ImportRefusal

    public var proposed: [Int64] = []
    /// Pending proposals an `entered-in-error` Observation withdrew.
    public var withdrawn: [Int64] = []
    public var skippedOutsideWindow = 0
    public var refused: [Refusal] = []
    /// Refusals the reader counted but did not list (past `HealthSummary.maxListedRefusals`).
    public var unlistedRefusals = 0
    /// Every refusal, listed or not (`refusedTotal` of the report).
    public var refusedTotal: Int { refused.count + unlistedRefusals }

    public init() {}
}
