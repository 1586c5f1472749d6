import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

extension Routes {
    /// CSV exports (audited) and cohort statistics; staff roles read (docs/product.md, "Exports and statistics").
    static func exports(_ service: StudyService) -> [Route] {
        // Every one of these is a long read.
        let with = Responses.adding(to: Responses.longRead(Responses.staff(notFound: "no such patient")))
        let csv = with([200: ("the CSV file (RFC 4180, UTF-8, CRLF, header row)", nil)])
        return [
            Route(.get, "/v1/patients/{studyId}/export.csv", access: .staff(.read), touches: .patient,
                  summary: "One patient's days as CSV: the REDCap daily_monitoring columns, times in the patient's time zone",
                  responses: csv) { ctx in
                try csvFile(service.exports.export(ExportCSV(kind: .days, studyId: ctx.parameter("studyId"), actor: ctx.actor)))
            },
            Route(.get, "/v1/export/days.csv", access: .staff(.read), touches: .export,
                  summary: "Every patient's days as CSV (as export.csv, all patients by study ID); ?studyId=ID for one", responses: csv) { ctx in
                try csvFile(service.exports.export(ExportCSV(kind: .days, studyId: try studyIdQuery(ctx), actor: ctx.actor)))
            },
            Route(.get, "/v1/export/alerts.csv", access: .staff(.read), touches: .export,
                  summary: "Alerts as CSV, one row per alert: the REDCap alert_log columns plus alert_ack_by and alert_resolved_by",
                  responses: csv) { ctx in
                try csvFile(service.exports.export(ExportCSV(kind: .alerts, studyId: try studyIdQuery(ctx), actor: ctx.actor)))
            },
            Route(.get, "/v1/export/contacts.csv", access: .staff(.read), touches: .export,
                  summary: "Contact attempts as CSV, one row per contact: record_id, contact_id, contact_at, outcome, alert_id, staff, note",
                  responses: csv) { ctx in
                try csvFile(service.exports.export(ExportCSV(kind: .contacts, studyId: try studyIdQuery(ctx), actor: ctx.actor)))
            },
            Route(.get, "/v1/patients/{studyId}/report.pdf", access: .staff(.read), touches: .patient,
                  summary: "One patient's clinical report as a PDF (A4, fonts embedded): facts, risk, the six trend charts with the patient's scaled thresholds, days, alerts, lab values, rules version; ?lang=de for German",
                  responses: with([200: ("the PDF document (application/pdf)", nil)])) { ctx in
                try pdfFile(service.reports.report(ClinicalReportRequest(studyId: ctx.parameter("studyId"),
                                                                         language: try languageQuery(ctx), actor: ctx.actor)))
            },
            Route(.get, "/v1/statistics", access: .staff(.read), touches: .list,
                  summary: "Cohort figures (all, low, medium, high): patients, patient-days, adherence, days per level, alert rates, times to acknowledgement and resolution",
                  responses: with([200: ("the statistics", S.ref("Statistics"))])) { ctx in
                .json(.ok, StatisticsJSON.statistics(try service.statistics.statistics(StatisticsQuery(studyId: try studyIdQuery(ctx)))))
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
    static func statistics(_ s: StudyStatistics) -> JSONValue {
        var o = JSONObject([("generatedAt", .string(iso8601UTC(milliseconds: s.generatedAt)))])
        if let id = s.studyId { o["studyId"] = .string(id) }
        o["noDataDays"] = .int(s.noDataDays)
        o["cohorts"] = .array(s.cohorts.map(cohort))
        return .object(o)
    }

    static func cohort(_ c: CohortStatistics) -> JSONValue {
        let p = c.patients, d = c.daysByLevel, r = c.alertsPer100PatientDays
        return .object(JSONObject([
            ("cohort", .string(c.cohort.rawValue)),
            ("patients", ["enrolled": .int(p.enrolled), "active": .int(p.active), "finished": .int(p.finished),
                          "withdrawn": .int(p.withdrawn)]),
            ("patientDays", .int(c.patientDays)),
            ("adherence", .double(c.adherence.map { round($0, 4) })),
            ("daysByLevel", ["green": .int(d.green), "yellow": .int(d.yellow), "red": .int(d.red), "none": .int(d.none)]),
            ("alertsPer100PatientDays", [
                "byLevel": ["yellow": rate(r.yellow), "red": rate(r.red)],
                "byKind": ["evaluation": rate(r.evaluation), "missing_checkin": rate(r.missingCheckin), "no_data_2d": rate(r.noData2d)],
            ]),
            ("ackMinutes", minutes(c.ackMinutes)),
            ("resolveMinutes", minutes(c.resolveMinutes)),
            ("missingDataAlerts", .int(c.missingDataAlerts)),
        ]))
    }

    static var schema: JSONValue {
        let count = S.anyInteger, ratio = S.nullable(S.number(0, 1)), rate = S.nullable(S.anyNumber)
        func object(_ names: [String], _ schema: JSONValue) -> JSONValue { S.object(names.map { ($0, schema) }, required: names) }
        let minutes = S.object([("median", S.nullable(S.anyNumber)), ("p90", S.nullable(S.anyNumber)), ("n", count)],
                               required: ["median", "p90", "n"])
        let cohort = S.object([
            ("cohort", S.oneOf(Cohort.allCases.map(\.rawValue))),
            ("patients", object(["enrolled", "active", "finished", "withdrawn"], count)), ("patientDays", count),
            ("adherence", ratio), ("daysByLevel", object(["green", "yellow", "red", "none"], count)),
            ("alertsPer100PatientDays", S.object([("byLevel", object(["yellow", "red"], rate)),
                                                  ("byKind", object(AlertKind.allCases.map(\.rawValue), rate))],
                                                 required: ["byLevel", "byKind"])),
            ("ackMinutes", minutes), ("resolveMinutes", minutes), ("missingDataAlerts", count),
        ], required: ["cohort", "patients", "patientDays", "adherence", "daysByLevel", "alertsPer100PatientDays", "ackMinutes",
                      "resolveMinutes", "missingDataAlerts"])
        return S.object([("generatedAt", S.dateTime), ("studyId", S.studyId), ("noDataDays", S.anyInteger), ("cohorts", S.array(cohort))],
                        required: ["generatedAt", "noDataDays", "cohorts"])
    }

    static func rate(_ v: Double?) -> JSONValue { .double(v.map { round($0, 2) }) }

    static func minutes(_ m: MinutesSummary) -> JSONValue {
        ["median": .double(m.median.map { round($0, 1) }), "p90": .double(m.p90.map { round($0, 1) }), "n": .int(m.n)]
    }

    static func round(_ v: Double, _ places: Int) -> Double {
        let scale = [1.0, 10, 100, 1000, 10_000][places]
        return (v * scale).rounded() / scale
    }
}
