import HyponaTrackCore

/// How a contact attempt ended (docs/product.md, "Contact log"): the codes are contract; people
/// read them as words (`Vocabulary.contactOutcome`).
public enum ContactOutcome: String, Sendable, CaseIterable {
    case reached
    case noAnswer = "no_answer"
    case voicemail
    case patientCalled = "patient_called"
    case other

    /// The patient was spoken to: the nurse reached them or they called (REDCap's
    /// `alert_reached_at` is the first such contact).
    public var spokeToPatient: Bool { self == .reached || self == .patientCalled }
}

/// `POST /v1/patients/{studyId}/contacts`: a contact attempt with the patient, about one of
/// their alerts or not.
public struct AddContact: Sendable {
    public var studyId: String
    public var outcome: ContactOutcome
    public var note: String?
    public var alertId: Int64?
    public var actor: String

    public init(studyId: String, outcome: ContactOutcome, note: String? = nil, alertId: Int64? = nil, actor: String) {
        self.studyId = studyId
        self.outcome = outcome
        self.note = note
        self.alertId = alertId
        self.actor = actor
    }
}

/// A stored contact attempt.
public struct ContactRecord: Sendable, Equatable {
    public var id: Int64
    /// The patient's study ID as stored.
    public var studyId: String
    /// When it was logged, ms since the epoch.
    public var at: Int64
    public var outcome: ContactOutcome
    /// The alert it was about, if any.
    public var alertId: Int64?
    /// Who logged it (the audit actor, `staff:<name>`).
    public var by: String
    public var note: String?
}

/// A logged contact, and whether logging it acknowledged the alert it names (an open alert is
/// acknowledged by a contact about it, as `POST …/acknowledgement` would).
public struct ContactAdded: Sendable {
    public var contact: ContactRecord
    public var acknowledgedAlert: Bool
}
