/// The audit rows of one FHIR import. A Bundle may carry several patients' values, so one row
/// without a subject hid the import from each patient's trail (`GET /v1/audit?subject=ID`): the
/// import is audited once per patient of the study it named (a withdrawn one too: the file held
/// their values), with what it did for that patient; a file that named none still gets one row
/// without a subject, so every import is audited.
struct ImportAudit {
    /// What the import did for one patient.
    struct Tally {
        let studyId: String
        var proposed: [Int64] = []
        var withdrawn: [Int64] = []
        var refused = 0
    }

    /// One audit row: its subject (nil: the import named no patient of the study) and details.
    struct Row {
        let studyId: String?
        let details: any Encodable & Sendable
    }

    private(set) var tallies: [Tally] = []
    private var positions: [String: Int] = [:]

    /// Runs `body` for one Observation of `studyId` and counts what it added to `report` as
    /// that patient's.
    mutating func record(_ studyId: String, in report: inout ImportReport,
                         _ body: (inout ImportReport) throws -> Void) throws {
        let (proposed, withdrawn, refused) = (report.proposed.count, report.withdrawn.count, report.refused.count)
        try body(&report)
        let i: Int
        if let known = positions[studyId] { i = known } else {
            i = tallies.count
            positions[studyId] = i
            tallies.append(Tally(studyId: studyId))
        }
        tallies[i].proposed += report.proposed[proposed...]
        tallies[i].withdrawn += report.withdrawn[withdrawn...]
        tallies[i].refused += report.refused.count - refused
    }

    /// The rows to append, in the order the file first named each patient. `refusedTotal` is
    /// the whole file's (unknown patients' entries too), so no row loses what the report said.
    func rows(_ report: ImportReport) -> [Row] {
        guard !tallies.isEmpty else { return [Row(studyId: nil, details: ImportService.audit(report))] }
        return tallies.map { t in
            Row(studyId: t.studyId, details: AuditDetails.ImportedForPatient(
                proposed: t.proposed, proposedCount: t.proposed.count, withdrawn: t.withdrawn, withdrawnCount: t.withdrawn.count,
                refused: t.refused, refusedTotal: report.refusedTotal, patients: tallies.count))
        }
    }
}
