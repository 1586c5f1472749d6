import HTJSON
import HyponaTrackCore
import Imports
import SQLite

/// `POST /v1/imports/fhir`: a FHIR R4 Observation or Bundle, as sent.
public struct ImportFHIR: Sendable {
    public var document: [UInt8]
    /// The importing member's sites: an entry about a patient of another site is refused as
    /// `unknown_patient`, exactly as one about no patient.
    public var scope: SiteScope
    public var actor: String

    public init(document: [UInt8], scope: SiteScope, actor: String) {
        self.document = document
        self.scope = scope
        self.actor = actor
    }
}

/// `POST /v1/patients/{studyId}/imports/apple-health`: the export (zip or XML) in a file.
public struct ImportAppleHealth: Sendable {
    public var studyId: String
    public var path: String
    public var actor: String

    public init(studyId: String, path: String, actor: String) {
        self.studyId = studyId
        self.path = path
        self.actor = actor
    }
}

/// Reads imports and stores what they propose; nothing here changes a patient's data
/// (docs/product.md, "Imports, proposed then confirmed"). A file that cannot be read is
/// refused whole, before anything is stored.
public final class ImportService: Sendable {
    let context: StudyContext

    init(context: StudyContext) { self.context = context }

    public func fhir(_ command: ImportFHIR) throws -> ImportReport {
        let result: FHIRReader.Result
        do {
            result = try FHIRReader.read(document: command.document,
                                         subject: .identifierSystem(context.configuration.imports.fhirPatientIdentifierSystem))
        }
        catch { throw DomainError.invalid(error.field, error.message) }
        let snapshot = context.rules.snapshot
        let (now, ms) = context.nowMilliseconds()
        return try context.write { db in
            var report = ImportReport()
            report.refused = result.refused
            var patients: [String: PatientRecord?] = [:]
            var named = ImportAudit()
            for o in result.observations {
                guard let studyId = o.studyId else { continue }
                let key = PatientRecord.key(studyId)
                if patients[key] == nil {
                    patients[key] = ValueRanges.isValidStudyId(studyId)
                        ? try PatientRepository.load(db, studyId: studyId).flatMap { command.scope.contains(site: $0.siteId) ? $0 : nil } : nil
                }
                guard let patient = patients[key] ?? nil else {
                    report.refuse(o.entry, .unknownPatient, "no patient with study ID \(studyId.prefix(64))", position: o.position)
                    continue
                }
                try named.record(patient.studyId, in: &report) { report in
                    // As the Apple Health import refuses up front: nothing is proposed for a withdrawn
                    // patient (a proposal could not be confirmed anyway).
                    guard !patient.isWithdrawn else {
                        return report.refuse(o.entry, .unknownPatient, "the patient with study ID \(patient.studyId) is withdrawn",
                                             position: o.position)
                    }
                    let window = try context.window(db, patient, snapshot.rules)
                    try LabProposals.propose(db, o, source: .fhir, patient: patient, window: window, context: context,
                                             actor: command.actor, now: now, at: ms, into: &report)
                }
            }
            report.refused = report.refused.enumerated().sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }
                .map(\.element)
            // One row per patient the file named, so each patient's audit trail (`GET /v1/audit?subject=ID`)
            // shows the import; a file that named none still leaves one row without a subject.
            for row in named.rows(report) {
                try AuditLog.append(db, at: ms, actor: command.actor, action: .importFhir, subject: row.studyId, details: row.details)
            }
            return report
        }
    }

    public func appleHealth(_ command: ImportAppleHealth) throws -> ImportReport {
        let snapshot = context.rules.snapshot
        let (now, ms) = context.nowMilliseconds()
        let (patient, window) = try context.read { db in
            let p = try context.activePatient(db, studyId: command.studyId, withdrawnMessage: "the patient is withdrawn")
            return (p, try context.window(db, p, snapshot.rules))
        }
        let zone = context.zone(patient.profile)
        let last = min(window.last, context.today(patient.profile, now: now))
        guard window.first <= last else { return ImportReport() }
        let summary: HealthSummary
        do { summary = try AppleHealthExport.read(path: command.path, studyId: patient.studyId, zone: zone, window: window.first...last) }
        catch { throw DomainError.invalid(error.field ?? "file", error.message) }
        return try context.write { db in
            var report = ImportReport()
            report.skippedOutsideWindow = summary.skippedOutsideWindow
            report.refused = summary.refused
            report.unlistedRefusals = summary.unlistedRefusals
            guard let current = try PatientRepository.load(db, id: patient.id), !current.isWithdrawn else {
                throw DomainError.conflict("the patient is withdrawn", problem: .patientWithdrawn)
            }
            for day in summary.days {
                let stored = try DayRepository.load(db, patientId: patient.id, date: day.date)
                for (field, value) in Self.values(day) {
                    try DayProposals.propose(db, patientId: patient.id, field: field, date: day.date, value: value,
                                             current: field.value(on: stored), source: .appleHealth, actor: command.actor,
                                             at: ms, into: &report)
                }
            }
            for lab in summary.labs {
                try LabProposals.propose(db, lab, source: .appleHealth, patient: current, window: window, context: context,
                                         actor: command.actor, now: now, at: ms, into: &report)
            }
            try AuditLog.append(db, at: ms, actor: command.actor, action: .importAppleHealth, subject: patient.studyId,
                                details: Self.audit(report))
            return report
        }
    }

    static func values(_ d: HealthDay) -> [(ProposalField, Double)] {
        var out: [(ProposalField, Double)] = []
        if let v = d.weightMorningKg { out.append((.weightMorningKg, v)) }
        if let v = d.weightEveningKg { out.append((.weightEveningKg, v)) }
        if let v = d.steps { out.append((.steps, Double(v))) }
        if let v = d.hrvSdnnMs { out.append((.hrvSdnnMs, v)) }
        if let v = d.sleepMinutes { out.append((.sleepMinutes, Double(v))) }
        if let v = d.restingHeartRate { out.append((.restingHeartRate, Double(v))) }
        return out
    }

    static func audit(_ r: ImportReport) -> AuditDetails.Imported {
        AuditDetails.Imported(proposed: r.proposed, withdrawn: r.withdrawn, refused: r.refusedTotal,
                              skippedOutsideWindow: r.skippedOutsideWindow)
    }
}

extension ImportReport {
    mutating func refuse(_ entry: String, _ reason: Reason, _ detail: String, position: Int = 0) {
        refused.append(Refusal(entry: entry, reason: reason, detail: detail, position: position))
    }
}
