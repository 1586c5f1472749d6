import HyponaTrackCore
import SQLite

/// The contacts CSV (docs/product.md, "Contact log"): one row per contact attempt, by study ID
/// then as logged. `contact_at` as the alerts CSV writes its times (`YYYY-MM-DD HH:MM:SS` in the
/// patient's time zone), `outcome` the code, `alert_id` blank for a contact about no alert,
/// `staff` the member's name (without `staff:`), `note` as typed; the two ids are numbers, the rest text.
enum ContactExport {
    static let header = ["record_id", "site", "contact_id", "contact_at", "outcome", "alert_id", "staff", "note"]

    static func append(to csv: inout CSVDocument, _ db: Connection, patients: [PatientRecord], onePatient: Bool,
                       mapper: (PatientRecord) -> ExportRowMapper) throws {
        let byStudyId = Dictionary(patients.map { ($0.studyId, $0) }, uniquingKeysWith: { a, _ in a })
        for contact in try ContactRepository.export(db, patientId: onePatient ? patients.first?.id : nil) {
            guard let patient = byStudyId[contact.studyId] else { continue }
            let m = mapper(patient)
            csv.append([.text(contact.studyId), .text(m.site), .number(String(contact.id)), .text(m.mapper.datetimeSeconds(milliseconds: contact.at)),
                        .text(contact.outcome.rawValue), .number(contact.alertId.map { String($0) } ?? ""),
                        .text(Principal.displayName(ofActor: contact.by)), .text(contact.note ?? "")])
        }
    }
}
