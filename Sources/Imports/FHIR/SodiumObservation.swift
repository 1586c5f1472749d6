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
    /// Which version of the Observation this is, as far as it says.
    public var version = Version()

    /// `meta.versionId`, `meta.lastUpdated` and `issued`, each nil when absent or unreadable.
    /// Versions are ordered by the first of the three that both carry (a versionId only when
    /// both are whole numbers: FHIR leaves it opaque); none in common, no order.
    public struct Version: Sendable, Equatable {
        public var versionId: String?
        public var lastUpdated: Timestamp?
        public var issued: Timestamp?

        public init(versionId: String? = nil, lastUpdated: Timestamp? = nil, issued: Timestamp? = nil) {
            self.versionId = versionId
            self.lastUpdated = lastUpdated
            self.issued = issued
        }

        public func isOlder(than other: Version) -> Bool {
            if let a = versionId.flatMap({ Int($0) }), let b = other.versionId.flatMap({ Int($0) }) { return a < b }
            if let a = lastUpdated, let b = other.lastUpdated { return a < b }
            if let a = issued, let b = other.issued { return a < b }
            return false
        }

        /// `meta.versionId 2, meta.lastUpdated …, issued …` (what is present), for a refusal.
        public var description: String {
            [versionId.map { "meta.versionId \($0.prefix(64))" }, lastUpdated.map { "meta.lastUpdated \($0)" },
             issued.map { "issued \($0)" }].compactMap { $0 }.joined(separator: ", ")
        }
    }
}
