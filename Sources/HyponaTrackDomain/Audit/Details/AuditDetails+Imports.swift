import HTJSON

/// Rows of imports and of the proposals they make.
extension AuditDetails {
    /// `import.appleHealth`, and `import.fhir` when the file named no patient of the study.
    struct Imported: Encodable, Sendable {
        let proposed: [Int64]
        let withdrawn: [Int64]
        let refused: Int
        let skippedOutsideWindow: Int
    }

    /// `import.fhir`: what the import did for one of the patients it named.
    struct ImportedForPatient: Encodable, Sendable {
        let proposed: [Int64]
        let proposedCount: Int
        let withdrawn: [Int64]
        let withdrawnCount: Int
        let refused: Int
        let refusedTotal: Int
        let patients: Int
    }

    /// `proposal.confirm`, `proposal.reject`: the proposal, the value it meets, the note.
    struct ProposalDecided: Encodable, Sendable {
        let proposalId: Int64
        let source: String
        let field: String
        let date: String
        let value: Double?
        let replaces: Double?
        let current: Double?
        @OmittedWhenNil var note: String? = nil
        @OmittedWhenNil var override: Bool? = nil
    }
}
