import HyponaTrackCore

/// Time zones the pages show times in, read through the service (pages never open a
/// repository).
extension StudyService {
    /// A patient's time zone (an unknown identifier falls back to the study's).
    public func zone(_ profile: PatientProfile) -> ZoneRules { context.zone(profile) }

    /// The study's time zone (`studyTimeZone`).
    public var studyZone: ZoneRules { context.studyZone }

    /// Every patient's time zone by study ID (alert lists show each alert in its patient's zone).
    public func zonesByStudyId() throws -> [String: ZoneRules] {
        Dictionary(try context.read { try PatientRepository.all($0) }.map { ($0.studyId, context.zone($0.profile)) }) { a, _ in a }
    }

    /// One patient's time zone by the internal id (one row read, not the timeline); nil for none.
    public func zone(patientId: Int64) throws -> ZoneRules? {
        try context.read { db in try PatientRepository.load(db, id: patientId) }.map { context.zone($0.profile) }
    }

    /// One patient's profile and time zone by the internal id (one row read); nil for none. The
    /// web check-in's forms show the fluid limit and the desmopressin field from it.
    public func profileAndZone(patientId: Int64) throws -> (profile: PatientProfile, zone: ZoneRules)? {
        try context.read { db in try PatientRepository.load(db, id: patientId) }.map { ($0.profile, context.zone($0.profile)) }
    }
}
