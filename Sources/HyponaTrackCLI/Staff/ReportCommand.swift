import HTJSON

/// `report ID [-o FILE] [--lang de|en]`: a GET of the patient's PDF report, written to FILE or to
/// standard output as it came (`DownloadOutput`; no --json: the answer is a PDF).
struct ReportCommand: GroupMember {
    let name = "report"
    var usage: [String] { ["report ID [-o FILE] [--lang de|en]"] }
    var spec: Arguments.Spec { .init(options: ["output", "lang"]) }
    var help: String {
        Help.text(usage, """
            The patient's clinical report as a PDF (A4, fonts embedded), for the clinical record:
            study ID, surgery date, risk class with Kat A/B/C, monitoring period; the six trend
            charts with the patient's scaled thresholds; every day with its level and reasons
            (code, value, threshold); alerts with who acknowledged and resolved them and when; lab
            values; the rules version. Times in the patient's time zone. Each report is recorded
            in the audit trail.
            --lang de|en: the report's language (default en).
            """ + "\n" + DownloadOutput.help("PDF"))
    }

    func run(_ args: [String], io: CLIOutput) -> Int32 {
        let parsed: Arguments
        let studyId: String
        do throws(UsageError) {
            parsed = try Arguments(args, spec: spec)
            if parsed.flag("help") { io.out(help); return ExitCode.success }
            guard let id = parsed.positionals.first else { throw UsageError("expected ID") }
            if let extra = parsed.positionals.dropFirst().first { throw UsageError("unexpected argument \(extra)") }
            if parsed.value("output")?.isEmpty == true { throw UsageError("-o needs a file name") }
            if let lang = parsed.value("lang"), lang != "de" && lang != "en" { throw UsageError("--lang is de or en, not \"\(lang)\"") }
            studyId = id
        } catch {
            return usageError(error, usage: usage, io: io)
        }
        do {
            let client = DaemonClient(server: parsed.value("server"), token: try GlobalOptions.token(parsed))
            let path = "/v1/patients/\(DaemonClient.segment(studyId))/report.pdf?lang=\(parsed.value("lang") ?? "en")"
            let pdf = try client.download(path, accept: "application/pdf")
            try DownloadOutput.deliver(pdf, output: parsed.value("output"), io: io) { file in
                "Wrote the report of \(studyId) (\(pdf.count) bytes) to \(file)."
            }
            return ExitCode.success
        } catch {
            return failed(error, io: io)
        }
    }
}
