import HyponaTrackCore
import SQLite

/// The outcomes CSV (`GET /v1/export/outcomes.csv`): `record_id`, `site`, the `outcome_log` columns in
/// dictionary order (withdrawn outcomes too, with their status), then `outcome_recorded_at`
/// (`YYYY-MM-DD HH:MM:SS` in the patient's time zone) and `outcome_recorded_by` (a staff name).
/// With the days and alerts CSVs it holds everything the outcome report counts
/// (docs/clinical-rules.md, "Outcomes").
enum OutcomeExport {
    static let header = ["record_id", "site"] + REDCapFields.columns(REDCapFields.outcomeLog, form: REDCapFields.outcomeLogForm)
        + ["outcome_recorded_at", "outcome_recorded_by"]

    static let numeric = REDCapFields.numericColumns(REDCapFields.outcomeLog, form: REDCapFields.outcomeLogForm)

    static func append(to csv: inout CSVDocument, _ db: Connection, patients: [PatientRecord], onePatient: Bool,
                       mapper: (PatientRecord) -> ExportRowMapper) throws {
        let byStudyId = Dictionary(patients.map { ($0.studyId, $0) }, uniquingKeysWith: { a, _ in a })
        for outcome in try OutcomeRepository.export(db, patientId: onePatient ? patients.first?.id : nil) {
            guard let patient = byStudyId[outcome.studyId] else { continue }
            let row = mapper(patient), m = row.mapper
            var v = m.outcomeLogValues(outcome)
            v["record_id"] = outcome.studyId
            v["site"] = row.site
            v["outcome_recorded_at"] = m.datetimeSeconds(milliseconds: outcome.recordedAt)
            v["outcome_recorded_by"] = Principal.displayName(ofActor: outcome.recordedBy)
            csv.append(ExportService.cells(header, numeric: numeric, v))
        }
    }
}
