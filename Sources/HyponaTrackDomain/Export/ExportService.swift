import HTJSON
import HyponaTrackCore
import SQLite

/// What a CSV export holds: one row per stored day, per alert, or per contact attempt.
public enum ExportKind: String, Sendable, CaseIterable {
    case days, alerts, contacts, outcomes

    var auditAction: AuditAction {
        switch self {
        case .days: .exportDays
        case .alerts: .exportAlerts
        case .contacts: .exportContacts
        case .outcomes: .exportOutcomes
        }
    }
}

/// `GET /v1/patients/{studyId}/export.csv`, `GET /v1/export/days.csv`, `…/alerts.csv`, `…/contacts.csv`:
/// every patient's rows, or one patient's (`studyId`), in RFC 4180 or for a spreadsheet (`dialect`).
public struct ExportCSV: Sendable {
    public var kind: ExportKind
    public var studyId: String?
    public var actor: String
    public var dialect: CSVDialect
    /// Only the rows of the patients this reaches.
    public var scope: SiteScope

    public init(kind: ExportKind, studyId: String?, scope: SiteScope, actor: String, dialect: CSVDialect = .rfc4180) {
        self.kind = kind
        self.studyId = studyId
        self.scope = scope
        self.actor = actor
        self.dialect = dialect
    }
}

/// A finished export: the CSV file and what it covers.
public struct CSVExport: Sendable {
    public var kind: ExportKind
    /// The patient's study ID as stored (nil: every patient).
    public var studyId: String?
    public var document: CSVDocument
    /// ms since the epoch.
    public var createdAt: Int64

    /// `hyponatrack-days-HT-007.csv`, `hyponatrack-alerts-all.csv`.
    public var fileName: String { "hyponatrack-\(kind.rawValue)-\(studyId ?? "all").csv" }
}

/// CSV exports of the stored data (docs/product.md, "Exports and statistics", "CSV"). The rows are
/// the REDCap rows (`REDCapMapper`), with times in each patient's own time zone; the whole file
/// is read in one read transaction (a consistent snapshot), a patient at a time. Every export is
/// audited (who, what, when) before it is handed out.
public final class ExportService: Sendable {
    let context: StudyContext

    init(context: StudyContext) { self.context = context }

    public func export(_ command: ExportCSV) throws -> CSVExport {
        let rules = context.rules.snapshot.rules
        let (studyId, document) = try context.transactions.longRead { db -> (String?, CSVDocument) in
            let patients = try command.studyId.map { [try context.patient(db, studyId: $0, scope: command.scope)] }
                ?? PatientRepository.all(db, scope: command.scope)
            let sites = Dictionary(uniqueKeysWithValues: try SiteRepository.all(db).map { ($0.id, $0.code) })
            let mappers = { (p: PatientRecord) in
                ExportRowMapper(mapper: REDCapMapper(studyZone: self.context.zone(p.profile), baselineEvent: nil, dailyEvent: nil),
                                site: sites[p.siteId] ?? "")
            }
            var document = CSVDocument(header: Self.header(command.kind, rules), dialect: command.dialect)
            // Data people read the codes; whoever opens the file in a spreadsheet reads the words,
            // in the spreadsheet's language (English in the RFC 4180 default).
            let wording = ReasonWording(command.dialect.language ?? .en, rules: rules)
            switch command.kind {
            case .days: try DayExport.append(to: &document, db, patients: patients, rules: rules, wording: wording, mapper: mappers)
            case .alerts:
                try AlertExport.append(to: &document, db, patients: patients, onePatient: command.studyId != nil, wording: wording,
                                       mapper: mappers)
            case .contacts:
                try ContactExport.append(to: &document, db, patients: patients, onePatient: command.studyId != nil, mapper: mappers)
            case .outcomes:
                try OutcomeExport.append(to: &document, db, patients: patients, onePatient: command.studyId != nil, mapper: mappers)
            }
            return (command.studyId == nil ? nil : patients.first?.studyId, document)
        }
        let ms = epochMilliseconds(context.clock.now())
        try context.write { db in
            try AuditLog.append(db, at: ms, actor: command.actor, action: command.kind.auditAction,
                                subject: studyId, details: AuditDetails.CSVExport(studyId: studyId, rows: document.rows))
        }
        return CSVExport(kind: command.kind, studyId: studyId, document: document, createdAt: ms)
    }

    static func header(_ kind: ExportKind, _ rules: RuleSet) -> [String] {
        switch kind {
        case .days: DayExport.header(rules)
        case .alerts: AlertExport.header
        case .contacts: ContactExport.header
        case .outcomes: OutcomeExport.header
        }
    }

    /// A row of the mapper's values by column as typed cells: a column the data dictionary
    /// declares numeric (`REDCapFields.numericColumns`) is a number, every other one text.
    static func cells(_ columns: [String], numeric: Set<String>, _ values: [String: String]) -> [CSVCell] {
        columns.map { numeric.contains($0) ? .number(values[$0] ?? "") : .text(values[$0] ?? "") }
    }
}

/// The days CSV: `record_id`, then the `daily_monitoring` columns in dictionary order, then
/// `reasons_text` (the day's reasons in clinical words, `ReasonWording`, "; " between). A row for
/// every date with any stored measurement or lab value (a lab value on the day of surgery, POD 0,
/// too, which REDCap's repeating instrument cannot hold).
enum DayExport {
    static func header(_ rules: RuleSet) -> [String] {
        ["record_id", "site"] + REDCapFields.columns(REDCapFields(rules: rules).daily, form: REDCapFields.dailyForm) + ["reasons_text"]
    }

    static func append(to csv: inout CSVDocument, _ db: Connection, patients: [PatientRecord], rules: RuleSet, wording: ReasonWording,
                       mapper: (PatientRecord) -> ExportRowMapper) throws {
        let columns = header(rules)
        let numeric = REDCapFields.numericColumns(REDCapFields(rules: rules).daily, form: REDCapFields.dailyForm)
        for patient in patients {
            let m = mapper(patient)
            let evaluations = try EvaluationRepository.latestPerDate(db, patientId: patient.id)
            let surgery = patient.profile.surgeryDate
            for day in try DayRepository.load(db, patientId: patient.id, from: surgery, to: surgery.adding(days: 400)) {
                var v = m.mapper.dailyValues(patient, day: day, alert: evaluations[day.date].map(DailyAlert.init), rules: rules)
                v["record_id"] = patient.studyId
                v["site"] = m.site
                v["reasons_text"] = wording.sentences(evaluations[day.date]?.reasons ?? []).joined(separator: "; ")
                csv.append(ExportService.cells(columns, numeric: numeric, v))
            }
        }
    }
}

/// The alerts CSV: `record_id`, the `alert_log` columns in dictionary order, then `alert_ack_by`
/// and `alert_resolved_by` (staff names) and `reasons_text` (as in the days CSV).
enum AlertExport {
    static let header = ["record_id", "site"] + REDCapFields.columns(REDCapFields.alertLog, form: REDCapFields.alertLogForm)
        + ["alert_ack_by", "alert_resolved_by", "reasons_text"]

    static let numeric = REDCapFields.numericColumns(REDCapFields.alertLog, form: REDCapFields.alertLogForm)

    static func append(to csv: inout CSVDocument, _ db: Connection, patients: [PatientRecord], onePatient: Bool, wording: ReasonWording,
                       mapper: (PatientRecord) -> ExportRowMapper) throws {
        let byId = Dictionary(uniqueKeysWithValues: patients.map { ($0.id, $0) })
        for entry in try AlertRepository.exportEntries(db, patientId: onePatient ? patients.first?.id : nil) {
            guard let patient = byId[entry.patientId] else { continue }
            let m = mapper(patient)
            var v = m.mapper.alertLogValues(entry.log)
            v["record_id"] = entry.log.studyId
            v["site"] = m.site
            v["alert_ack_by"] = entry.firstAcknowledgedBy ?? ""
            v["alert_resolved_by"] = entry.resolvedBy ?? ""
            v["reasons_text"] = wording.sentences(entry.reasons).joined(separator: "; ")
            csv.append(ExportService.cells(header, numeric: numeric, v))
        }
    }
}

/// What a CSV row of a patient is built with: the REDCap mapper in the patient's zone and the
/// code of the patient's site (the `site` column after `record_id`).
struct ExportRowMapper {
    let mapper: REDCapMapper
    let site: String
}
