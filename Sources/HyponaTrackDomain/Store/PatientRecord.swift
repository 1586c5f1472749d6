import HyponaTrackCore

/// A patient as stored: the clinical profile plus the study's bookkeeping.
public struct PatientRecord: Sendable, Equatable {
    public var id: Int64
    public var profile: PatientProfile
    public var enrolledAt: Int64
    public var enrolledBy: String
    public var activatedAt: Int64?
    public var withdrawnAt: Int64?
    public var withdrawalDate: LocalDate?
    public var withdrawalReason: String?
    /// Moves on with every change to the patient or its clinical data (`PatientsSchema.v2`).
    public var revision: Int64 = 0
    /// The site the patient belongs to (`patients.site_id`, migration `v19_sites`).
    public var siteId: Int64 = 1

    public var studyId: String { profile.studyId }
    public var isWithdrawn: Bool { withdrawnAt != nil }

    /// The key under which study IDs are unique: REDCap matches record names case-insensitively.
    public static func key(_ studyId: String) -> String { studyId.lowercased() }
}
