import HyponaTrackCore

/// What happened to a patient that the light was meant to foresee (docs/product.md, third round,
/// O). The codes are contract; people read them as words (`Vocabulary.outcomeKind`).
public enum OutcomeKind: String, Sendable, CaseIterable {
    case hyponatremia
    case edVisit = "ed_visit"
    case readmission
    case other
}

/// Who recorded an outcome: a staff member, or the server from a lab sodium below
/// `outcomes.hyponatremiaBelow`.
public enum OutcomeSource: String, Sendable, CaseIterable {
    case staff, lab
}

/// A lab-derived outcome is withdrawn when its lab value is deleted; it stays stored (and in
/// REDCap) with this status, and no figure counts it.
public enum OutcomeStatus: String, Sendable, CaseIterable {
    case recorded, withdrawn
}

/// `POST /v1/patients/{studyId}/outcomes`, `hyponatrack outcome`.
public struct AddOutcome: Sendable {
    public var studyId: String
    public var kind: OutcomeKind
    public var date: LocalDate
    public var sodium: Double?
    public var note: String?
    public var actor: String

    public init(studyId: String, kind: OutcomeKind, date: LocalDate, sodium: Double? = nil, note: String? = nil, actor: String) {
        self.studyId = studyId
        self.kind = kind
        self.date = date
        self.sodium = sodium
        self.note = note
        self.actor = actor
    }
}

/// A stored outcome.
public struct OutcomeRecord: Sendable, Equatable {
    public var id: Int64
    /// The patient's study ID as stored.
    public var studyId: String
    public var kind: OutcomeKind
    public var date: LocalDate
    /// Days after surgery (the date's POD).
    public var pod: Int
    /// mmol/L; the lab value's for a lab-derived outcome.
    public var sodium: Double?
    public var note: String?
    public var source: OutcomeSource
    /// The lab value a lab-derived outcome was recorded from.
    public var labId: Int64?
    public var status: OutcomeStatus
    /// ms since the epoch.
    public var recordedAt: Int64
    /// The audit actor (`staff:<name>`), or the actor who entered the lab value.
    public var recordedBy: String
    /// ms since the epoch, for a withdrawn outcome.
    public var withdrawnAt: Int64?
    /// REDCap's `outcome_log` instance: 1 + the patient's earlier outcomes.
    public var instance: Int

    /// Counts as an episode: a hyponatremia outcome not withdrawn.
    public var isEpisode: Bool { kind == .hyponatremia && status == .recorded }
}
