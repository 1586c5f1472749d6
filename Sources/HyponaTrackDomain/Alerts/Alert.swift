import HyponaTrackCore

/// What raised an alert: a yellow or red evaluation, or silence (docs/clinical-rules.md §8).
public enum AlertKind: String, Sendable, CaseIterable {
    case evaluation
    case missingCheckin = "missing_checkin"
    case noData2d = "no_data_2d"

    init(_ kind: MissingDataDetector.Kind) {
        switch kind {
        case .missingCheckin: self = .missingCheckin
        case .noData2d: self = .noData2d
        }
    }
}

/// Where an alert stands: open (escalating) → acknowledged (the climb stops) → resolved.
public enum AlertState: String, Sendable, CaseIterable {
    case open, acknowledged, resolved
}

/// An alert as the lifecycle needs it.
struct Alert: Sendable {
    var id: Int64
    var patientId: Int64
    /// The first day it covers (of those in `alert_days`).
    var date: LocalDate
    var kind: AlertKind
    var level: Level
    /// The highest reasons reached, by code.
    var reasons: [StoredReason]
    var pod: Int
    var state: AlertState
    /// Bumped by each worsening; the tiers of older ladders are void.
    var ladder: Int
    var ladderStartedAt: Int64
    /// The last day it covers.
    var lastDate: LocalDate
    /// When a day joined it after its acknowledgement (nil: none since).
    var newDataAt: Int64? = nil

    var redCodes: Set<String> { StoredReason.codes(reasons, at: .red) }

    /// A level rise or a red code this alert did not have yet.
    func isWorsened(by level: Level, _ reasons: [StoredReason]) -> Bool {
        level > self.level || !StoredReason.codes(reasons, at: .red).subtracting(redCodes).isEmpty
    }
}

/// An alert as staff see it: with the patient's study ID, the staff transitions and how many
/// escalation tiers have fired.
public struct AlertView: Sendable {
    public struct Transition: Sendable, Equatable {
        public var at: Int64
        public var by: String
        public var note: String?
    }

    /// An acknowledgement that a later worsening superseded, with the level it acknowledged.
    public struct EarlierAcknowledgement: Sendable, Equatable {
        public var acknowledged: Transition
        public var level: Level
    }

    public var id: Int64
    public var studyId: String
    public var date: LocalDate
    public var pod: Int
    public var kind: AlertKind
    public var level: Level
    public var state: AlertState
    public var reasons: [StoredReason]
    public var openedAt: Int64
    public var tiersFired: Int
    /// The acknowledgement since the last worsening (a worsening clears it).
    public var acknowledged: Transition?
    public var resolved: Transition?
    public var resolveSodium: Double?
    /// When the alert last worsened (docs/product.md, "Alerts"); nil if it never did.
    public var worsenedAt: Int64? = nil
    /// Acknowledgements made before the last worsening, oldest first: they stay in the history
    /// but do not cover the worsened alert, which needs acknowledging again
    /// (`AlertRepository.withEarlierAcknowledgements`).
    public var earlierAcknowledgements: [EarlierAcknowledgement] = []
    /// The contact attempts about this alert, oldest first (`AlertRepository.withContacts`).
    public var contacts: [ContactRecord] = []
    /// The last day it covers (docs/product.md, "Alerts": an alert covers days).
    public var lastDate: LocalDate? = nil
    /// Each day it covers with the level and reasons of that day, oldest first
    /// (`AlertRepository.withDays`).
    public var days: [CoveredDay] = []
    /// The alert the upgrade to episodes merged this one into (then it is resolved).
    public var mergedInto: Int64? = nil
    /// When a day joined it after its acknowledgement (nil: none since): "new data since
    /// acknowledged" on the board, and it may be acknowledged again.
    public var newDataAt: Int64? = nil

    /// One day an alert covers.
    public struct CoveredDay: Sendable, Equatable {
        public var date: LocalDate
        public var pod: Int
        public var level: Level
        public var reasons: [StoredReason]
    }

    /// Acknowledged once, worsened since and not acknowledged again (nor resolved).
    public var needsAcknowledgingAgain: Bool { state == .open && !earlierAcknowledgements.isEmpty }
}

/// An alert as REDCap's `alert_log` instrument records it (docs/product.md, "`alert_log`"):
/// times in ms since the epoch, nil while not known yet.
struct AlertLogEntry: Sendable, Equatable {
    var alertId: Int64
    var studyId: String
    /// The REDCap instance: 1 + the number of the patient's earlier alerts, fixed at opening.
    var instance: Int
    var kind: AlertKind
    var level: Level
    var date: LocalDate
    var pod: Int
    var reasonCodes: [String]
    var openedAt: Int64
    /// The first acknowledgement (a worsening reopens the alert but does not undo it).
    var firstAcknowledgedAt: Int64?
    /// The role of the staff member who acknowledged first, when they were found.
    var firstAcknowledgedRole: Role?
    var resolvedAt: Int64?
    var resolveSodium: Double?
    /// The first acknowledgement's note; the resolution's note.
    var acknowledgeNote: String? = nil
    var resolutionNote: String? = nil
    /// How many contacts name the alert, and the first that spoke to the patient (ms).
    var contactAttempts = 0
    var reachedAt: Int64? = nil
    /// The last day the alert covers (`date` is its first).
    var lastDate: LocalDate? = nil
}
