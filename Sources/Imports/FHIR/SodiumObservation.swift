import HyponaTrackCore

/// A FHIR R4 sodium Observation that passed the checks that need no database: LOINC code,
/// status, unit, range and time. The service then matches the patient and the window.
public struct SodiumObservation: Sendable, Equatable {
    public enum Status: String, Sendable {
        case final, amended, corrected
        case enteredInError = "entered-in-error"
    }

    /// When it was measured: an instant, or only a date (a date-only FHIR value is that date).
    public enum Time: Sendable, Equatable {
        case instant(Timestamp)
        case date(LocalDate)

        public func localDate(in zone: ZoneRules) -> LocalDate {
            switch self {
            case .instant(let t): return zone.localDate(atEpochSeconds: t.epochSeconds)
            case .date(let d): return d
            }
        }
    }

    /// The entry's label for the report (`fullUrl`, `Observation/ID` or `entry[N]`).
    public var entry: String
    /// What makes a re-import the same Observation: `identifier:SYSTEM|VALUE` (preferred) or `id:ID`;
    /// nil when it has neither.
    public var key: String?
    /// The study ID its subject names (nil: the subject names no study ID of the configured system).
    public var studyId: String?
    public var status: Status
    /// mmol/L; nil only for `entered-in-error` without a value.
    public var value: Double?
    /// nil only for `entered-in-error` without a time.
    public var time: Time?
    /// The entry's place in the Bundle (0 for a lone Observation).
    public var position = 0
}
