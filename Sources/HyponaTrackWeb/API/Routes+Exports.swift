import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

extension Routes {
    /// CSV exports (audited) and cohort statistics; staff roles read (docs/product.md, "Exports and statistics").
    static func exports(_ service: StudyService) -> [Route] {
        // Every one of these is a long read.
        let with = Responses.adding(to: Responses.longRead(Responses.staff(notFound: "no such patient")))
        let csv = with([200: ("the CSV file (RFC 4180, UTF-8, CRLF, header row; with dialect=excel: a byte order mark, `;` and, in German, decimal commas)", nil)])
        let one = CSVParameters.declared, every = [CSVParameters.studyId, SiteParameters.filter] + CSVParameters.declared
        @Sendable func file(_ ctx: RequestContext, _ kind: ExportKind, _ studyId: String?) throws -> RouteResult {
            let dialect = try CSVParameters.dialect({ ctx.query($0) }, pageLanguage: nil)
            return csvFile(try service.exports.export(ExportCSV(kind: kind, studyId: studyId, scope: ctx.scope, actor: ctx.actor, dialect: dialect)))
        }
        return [
            Route(.get, "/v1/patients/{studyId}/export.csv", access: .staff(.read), touches: .patient,
                  summary: "One patient's days as CSV: the REDCap daily_monitoring columns, times in the patient's time zone",
                  query: one, responses: csv) { ctx in try file(ctx, .days, ctx.parameter("studyId")) },
            Route(.get, "/v1/export/days.csv", access: .staff(.read), touches: .export,
                  summary: "Every patient's days as CSV (as export.csv, all patients by study ID); ?studyId=ID for one",
                  query: every, responses: csv) { ctx in try file(ctx, .days, try studyIdQuery(ctx)) },
            Route(.get, "/v1/export/alerts.csv", access: .staff(.read), touches: .export,
                  summary: "Alerts as CSV, one row per alert: the REDCap alert_log columns plus alert_ack_by and alert_resolved_by",
                  query: every, responses: csv) { ctx in try file(ctx, .alerts, try studyIdQuery(ctx)) },
            Route(.get, "/v1/export/contacts.csv", access: .staff(.read), touches: .export,
                  summary: "Contact attempts as CSV, one row per contact: record_id, contact_id, contact_at, outcome, alert_id, staff, note",
                  query: every, responses: csv) { ctx in try file(ctx, .contacts, try studyIdQuery(ctx)) },
            Route(.get, "/v1/export/outcomes.csv", access: .staff(.read), touches: .export,
                  summary: "Outcomes as CSV, one row per outcome (withdrawn ones too): the REDCap outcome_log columns plus outcome_recorded_at and outcome_recorded_by",
                  query: every, responses: csv) { ctx in try file(ctx, .outcomes, try studyIdQuery(ctx)) },
            Route(.get, "/v1/patients/{studyId}/report.pdf", access: .staff(.read), touches: .patient,
                  summary: "One patient's clinical report as a PDF (A4, fonts embedded): facts, risk, the six trend charts with the patient's scaled thresholds, days, alerts, lab values, rules version; ?lang=de for German",
                  responses: with([200: ("the PDF document (application/pdf)", nil)])) { ctx in
                try pdfFile(service.reports.report(ClinicalReportRequest(studyId: ctx.parameter("studyId"),
                                                                         language: try languageQuery(ctx), actor: ctx.actor)))
            },
            Route(.get, "/v1/statistics", access: .staff(.read), touches: .list,
                  summary: "Cohort figures (all, low, medium, high): patients, patient-days, adherence, days per level, alert rates, times to acknowledgement and resolution",
                  query: [SiteParameters.filter], responses: with([200: ("the statistics", StatisticsJSON.statistics.reference)])) { ctx in
                .json(.ok, StatisticsJSON.statistics.encode(try service.statistics.statistics(StatisticsQuery(studyId: try studyIdQuery(ctx), scope: ctx.scope))))
            },
        ]
    }

    /// `?studyId=ID`: absent is every patient; present must name one.
    static func studyIdQuery(_ ctx: RequestContext) throws -> String? {
        guard let id = ctx.query("studyId") else { return nil }
        guard ValueRanges.isValidStudyId(id) else { throw APIError.invalid("studyId", "a study ID is 1-64 characters of A-Z a-z 0-9 _ -") }
        return id
    }

    /// `?lang=en|de`: absent is English.
    static func languageQuery(_ ctx: RequestContext) throws -> Language {
        guard let text = ctx.query("lang") else { return .en }
        guard let language = Language(rawValue: text) else { throw APIError.invalid("lang", "lang is en or de") }
        return language
    }

    static func pdfFile(_ report: ClinicalReport) -> RouteResult { .raw(pdfResponse(report)) }

    /// The PDF download, with W3C Server-Timing: where the report's time went (read, layout,
    /// draw, finish, audit), in ms.
    static func pdfResponse(_ report: ClinicalReport) -> HTTPResponse {
        let timing = report.timings.map { t in
            let ms = Double(t.duration.components.seconds) * 1000 + Double(t.duration.components.attoseconds) / 1e15
            return "\(t.name);dur=\((ms * 10).rounded() / 10)"
        }.joined(separator: ", ")
        return download(report.pdf, contentType: "application/pdf", fileName: report.fileName, extra: [("Server-Timing", timing)])
    }

    static func csvFile(_ export: CSVExport) -> RouteResult { .raw(csvResponse(export)) }

    /// The CSV download (the API's routes and the console's links answer with the same).
    /// RFC 4180 §3 registers text/csv with the optional `charset` and `header` parameters.
    static func csvResponse(_ export: CSVExport) -> HTTPResponse {
        download(export.document.bytes, contentType: "text/csv; charset=utf-8; header=present", fileName: export.fileName)
    }

    /// A file to save: never cached, never sniffed.
    static func download(_ body: [UInt8], contentType: String, fileName: String, extra: [(String, String)] = []) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        for (name, value) in extra { headers.add(name: name, value: value) }
        headers.add(name: "Content-Disposition", value: "attachment; filename=\"\(fileName)\"")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        return HTTPResponse(status: .ok, headers: headers, body: body)
    }
}

/// The API form of the statistics, rounded for reading: adherence to 4 decimals (a fraction,
/// 0.8333 = 83.33 %), rates to 2, minutes to 1.
enum StatisticsJSON {
    static let statistics = ResponseShape<StudyStatistics>("Statistics", [
        .member("generatedAt", .instant) { $0.generatedAt },
        .omittedWhenNil("studyId", .string(S.studyId)) { $0.studyId },
        .member("noDataDays", .integer) { $0.noDataDays },
        .member("cohorts", .array(.object(cohort))) { $0.cohorts },
    ])

    static let cohort = ResponseShape<CohortStatistics>(nil, [
        .member("cohort", .oneOf(Cohort.allCases)) { $0.cohort },
        .member("patients", .object(patients)) { $0.patients },
        .member("patientDays", .integer) { $0.patientDays },
        .member("adherence", .nullable(.number(S.number(0, 1)))) { $0.adherence.map { round($0, 4) } },
        .member("daysByLevel", .object(daysByLevel)) { $0.daysByLevel },
        .member("alertsPer100PatientDays", .object(rates)) { $0.alertsPer100PatientDays },
        .member("ackMinutes", .object(minutes)) { $0.ackMinutes },
        .member("resolveMinutes", .object(minutes)) { $0.resolveMinutes },
        .member("missingDataAlerts", .integer) { $0.missingDataAlerts },
    ])

    static let patients = ResponseShape<PatientCounts>(nil, [
        .member("enrolled", .integer) { $0.enrolled },
        .member("active", .integer) { $0.active },
        .member("finished", .integer) { $0.finished },
        .member("withdrawn", .integer) { $0.withdrawn },
    ])

    static let daysByLevel = ResponseShape<DayLevelCounts>(nil, [
        .member("green", .integer) { $0.green },
        .member("yellow", .integer) { $0.yellow },
        .member("red", .integer) { $0.red },
        .member("none", .integer) { $0.none },
    ])

    /// Alerts per 100 patient-days, by level and by kind (the kinds' codes, `AlertKind`).
    static let rates = ResponseShape<AlertRates>(nil, [
        .member("byLevel", .object(ResponseShape<AlertRates>(nil, [
            .member("yellow", rate) { $0.yellow },
            .member("red", rate) { $0.red },
        ]))) { $0 },
        .member("byKind", .object(ResponseShape<AlertRates>(nil, [
            .member(AlertKind.evaluation.rawValue, rate) { $0.evaluation },
            .member(AlertKind.missingCheckin.rawValue, rate) { $0.missingCheckin },
            .member(AlertKind.noData2d.rawValue, rate) { $0.noData2d },
        ]))) { $0 },
    ])

    static let minutes = ResponseShape<MinutesSummary>(nil, [
        .member("median", .nullable(.number)) { $0.median.map { round($0, 1) } },
        .member("p90", .nullable(.number)) { $0.p90.map { round($0, 1) } },
        .member("n", .integer) { $0.n },
    ])

    /// A rate, rounded to 2 decimals; null when there are no patient-days to divide by.
    static let rate = JSONForm<Double?>(schema: S.nullable(S.anyNumber)) { .double($0.map { round($0, 2) }) }

    static func round(_ v: Double, _ places: Int) -> Double {
        let scale = [1.0, 10, 100, 1000, 10_000][places]
        return (v * scale).rounded() / scale
    }
}
