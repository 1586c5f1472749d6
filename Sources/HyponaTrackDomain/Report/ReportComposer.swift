import Charts
import HyponaTrackCore
import PDFCanvas

/// What the report says, in which order (docs/product.md, "The clinical report (PDF)"): the
/// patient's facts, the six trend charts, the day table, the alerts, the lab values, the rules
/// version and the disclaimer. Numbers in the language's decimal style, times in the patient's
/// time zone, reasons as codes with the measured value and the scaled threshold.
struct ReportComposer {
    let content: ReportContent
    let text: ReportText
    var metrics = ReportLayout.Metrics()

    func blocks() -> [ReportBlock] {
        let body = metrics.body, small = metrics.small, ink = ReportLayout.text
        var blocks: [ReportBlock] = [.heading("\(text.title): \(content.studyId)"), .heading(text.summary), .facts(summaryFacts()),
                                     .facts(facts()),
                                     .paragraph(text.disclaimer, font: PDFFont(size: body.size, bold: true),
                                                color: PDFColor(hex: ChartPalette.stroke(.red)))]
        blocks.append(.heading(text.baseline))
        blocks.append(.facts(baselineFacts()))
        blocks.append(.table(factorTable()))
        blocks.append(.heading(text.charts))
        blocks.append(.paragraph(text.chartsNote, font: small, color: ink))
        blocks += content.charts.map { .chart($0) }
        blocks.append(.heading(text.days))
        blocks.append(content.hasData ? .table(dayTable()) : .paragraph(text.noData + ".", font: body, color: ink))
        blocks.append(.heading(text.symptoms))
        if let symptoms = symptomTable() {
            blocks.append(.paragraph(text.symptomLegend, font: small, color: ink))
            blocks.append(.table(symptoms))
        } else {
            blocks.append(.paragraph(text.noSymptoms, font: body, color: ink))
        }
        blocks.append(.heading(text.alerts))
        blocks.append(content.alerts.isEmpty ? .paragraph(text.noAlerts, font: body, color: ink) : .table(alertTable()))
        blocks.append(.heading(text.contacts))
        blocks.append(content.contacts.isEmpty ? .paragraph(text.noContacts, font: body, color: ink) : .table(contactTable()))
        blocks.append(.heading(text.outcomes))
        blocks.append(content.outcomes.isEmpty ? .paragraph(text.noOutcomes, font: body, color: ink) : .table(outcomeTable()))
        blocks.append(.heading(text.labs))
        blocks.append(content.labs.isEmpty ? .paragraph(text.noLabs, font: body, color: ink) : .table(labTable()))
        blocks.append(.space(4))
        blocks.append(.paragraph(text.rulesNote, font: small, color: ink))
        blocks.append(.space(24))
        blocks.append(.paragraph(text.reviewedBy, font: body, color: ink))
        return blocks
    }

    // MARK: facts

    func facts() -> [(label: String, value: String)] {
        let p = content.profile, w = content.window
        var period = "\(day(w.first)) – \(day(w.last)) (POD \(p.pod(at: w.first))–\(p.pod(at: w.last)))"
        if w.extended { period += ", " + text.extended }
        var status = text.active(content.monitoringActive)
        if w.withdrawn { status += ", " + text.withdrawn }
        var facts: [(label: String, value: String)] = [
            (text.studyId, content.studyId), (text.surgeryDate, day(p.surgeryDate)), (text.timeZone, content.zone.identifier),
            (text.monitoring, period), (text.status, status),
            (text.rulesVersion, content.rulesVersion),
        ]
        if !content.evaluationVersions.isEmpty && content.evaluationVersions != [content.rulesVersion] {
            facts.append((text.versionsUsed, content.evaluationVersions.joined(separator: ", ")))
        }
        facts.append((text.generatedAt, time(content.generatedAt)))
        return facts
    }

    // MARK: tables

    func dayTable() -> ReportTable {
        let columns = [ReportTable.Column(title: text.dayColumn, share: 0.14), .init(title: text.levelColumn, share: 0.08),
                       .init(title: text.weightColumn, share: 0.10), .init(title: text.fluidColumn, share: 0.09),
                       .init(title: text.sgColumn, share: 0.08), .init(title: text.labValueColumn, share: 0.10),
                       .init(title: text.reasonsColumn, share: 0.41)]
        let rows = content.days.map { d -> ReportTable.Row in
            let e = d.entry
            let reasons: String
            if e == nil {
                reasons = text.noData
            } else if let evaluation = d.evaluation {
                reasons = evaluation.level == nil ? text.vocabulary.notEvaluated : evaluation.reasons.map(reason).joined(separator: "\n")
            } else {
                reasons = "–"
            }
            let sodium = e?.labSodium.map { number($0.value, 1) }.joined(separator: ", ")
            let sg = e?.urineSG.map { MeasureFormat.urineSG($0, separator: text.decimalSeparator) } ?? "–"
            var row = ReportTable.Row(cells: ["\(day(d.date)) (\(d.pod))", text.level(d.evaluation?.level),
                                              optional(e?.weightMorningKg, 2), optional(e?.fluidIntakeMl, 0),
                                              sg, sodium.flatMap { $0.isEmpty ? nil : $0 } ?? "–", reasons])
            if let level = d.evaluation?.level, let fill = Self.fill(level) { row.fills[1] = fill }
            return row
        }
        return ReportTable(columns: columns, rows: rows)
    }

    func alertTable() -> ReportTable {
        let columns = [ReportTable.Column(title: text.alertColumn, share: 0.13), .init(title: text.kindColumn, share: 0.11),
                       .init(title: text.reasonsColumn, share: 0.24), .init(title: text.openedColumn, share: 0.11),
                       .init(title: text.acknowledgedColumn, share: 0.15), .init(title: text.contactsColumn, share: 0.12),
                       .init(title: text.resolvedColumn, share: 0.14)]
        let rows = content.alerts.map { a -> ReportTable.Row in
            var resolved = a.resolved.map { transition(Transition(at: $0.at, by: $0.by)) } ?? text.notYet
            if let na = a.resolveSodium { resolved += "\n\(text.sodium) \(number(na, 1))" }
            resolved += note(a.resolved?.note)
            let kind = text.vocabulary.alertKind(a.kind, noDataDays: content.noDataDays)
            var row = ReportTable.Row(cells: ["#\(a.id) \(day(a.date)) (POD \(a.pod))", "\(kind), \(text.level(a.level))",
                                              a.reasons.isEmpty ? "–" : a.reasons.map(reason).joined(separator: "\n"),
                                              time(Double(a.openedAt) / 1000), acknowledgements(a), contactAttempts(a), resolved])
            if let fill = Self.fill(a.level) { row.fills[1] = fill }
            return row
        }
        return ReportTable(columns: columns, rows: rows)
    }

    /// Every contact attempt: when, how it ended, which alert, who, the note.
    func contactTable() -> ReportTable {
        let columns = [ReportTable.Column(title: text.labTimeColumn, share: 0.17), .init(title: text.outcomeColumn, share: 0.17),
                       .init(title: text.alertNumberColumn, share: 0.09), .init(title: text.staffColumn, share: 0.15),
                       .init(title: text.noteColumn, share: 0.42)]
        return ReportTable(columns: columns, rows: content.contacts.map { c in
            ReportTable.Row(cells: [time(Double(c.at) / 1000), text.vocabulary.contactOutcome(c.outcome),
                                    c.alertId.map { "#\($0)" } ?? "–", Principal.displayName(ofActor: c.by), c.note ?? "–"])
        })
    }

    /// Every outcome by date: day and POD, kind, sodium, who recorded it (a withdrawn one says so), the note.
    func outcomeTable() -> ReportTable {
        let columns = [ReportTable.Column(title: text.labDayColumn, share: 0.16), .init(title: text.eventColumn, share: 0.2),
                       .init(title: text.labValueColumn, share: 0.12), .init(title: text.sourceColumn, share: 0.24),
                       .init(title: text.noteColumn, share: 0.28)]
        return ReportTable(columns: columns, rows: content.outcomes.map { o in
            ReportTable.Row(cells: ["\(day(o.date)) (\(o.pod))", text.vocabulary.outcomeKind(o.kind), o.sodium.map { number($0, 1) } ?? "–",
                                    text.vocabulary.outcomeSource(o.source, status: o.status), o.note ?? "–"])
        })
    }

    func labTable() -> ReportTable {
        let columns = [ReportTable.Column(title: text.labTimeColumn, share: 0.3), .init(title: text.labDayColumn, share: 0.3),
                       .init(title: text.labValueColumn, share: 0.4)]
        return ReportTable(columns: columns, rows: content.labs.map { lab in
            ReportTable.Row(cells: [time(lab.time.epochSeconds), "\(day(lab.date)) (\(lab.pod))", number(lab.value, 1)])
        })
    }

    // MARK: cells

    /// The reason in clinical words ("Sodium 129 mmol/L (red at ≤ 129)"), its code on the
    /// line below for whoever compares the report with the data.
    func reason(_ r: StoredReason) -> String {
        "\(ReasonWording(text.language, facts: content.wordingFacts).sentence(r))\n\(r.code)"
    }

    /// When, by whom (a staff member's name, never a patient's), the note given.
    func transition(_ t: AlertView.Transition) -> String {
        transition(Transition(at: t.at, by: t.by)) + note(t.note)
    }

    /// When, by whom.
    func transition(_ t: Transition) -> String {
        let by = Principal.displayName(ofActor: t.by)
        return time(Double(t.at) / 1000) + (by.isEmpty ? "" : "\n\(text.by) \(by)")
    }

    struct Transition {
        var at: Int64
        var by: String
    }

    /// "Note: called" on a line of its own, nothing without a note.
    func note(_ note: String?) -> String {
        guard let note, !note.isEmpty else { return "" }
        return "\n\(text.noteLabel): \(note)"
    }

    /// The acknowledgement since the last worsening (or "not yet"), whether the worsened alert
    /// still needs one, and the acknowledgements the worsening superseded.
    func acknowledgements(_ a: AlertView) -> String {
        var lines = [a.acknowledged.map(transition) ?? text.notYet]
        if a.needsAcknowledgingAgain, let worsened = a.worsenedAt {
            lines.append(text.vocabulary.needsAcknowledgingAgain(worsenedAt: time(Double(worsened) / 1000)))
        }
        for earlier in a.earlierAcknowledgements {
            lines.append(text.vocabulary.acknowledgedBeforeWorsening(earlier.level, at: time(Double(earlier.acknowledged.at) / 1000),
                                                                     by: Principal.displayName(ofActor: earlier.acknowledged.by))
                         + note(earlier.acknowledged.note))
        }
        return lines.joined(separator: "\n")
    }

    /// An alert's contact attempts, one line each (when, how it ended), after their count.
    func contactAttempts(_ a: AlertView) -> String {
        guard !a.contacts.isEmpty else { return "–" }
        return ([text.attempts(a.contacts.count)] + a.contacts.map { c in
            "\(time(Double(c.at) / 1000)) \(text.vocabulary.contactOutcome(c.outcome))"
        }).joined(separator: "\n")
    }

    /// `YYYY-MM-DD HH:MM` (German `6.12.2026 14:05`) in the patient's time zone.
    func time(_ epochSeconds: Double) -> String {
        let local = content.zone.timestamp(atEpochSeconds: epochSeconds).description
        let date = LocalDate(String(local.prefix(10))).map(day) ?? String(local.prefix(10))
        return date + " " + clock(epochSeconds)
    }

    func number(_ v: Double, _ decimals: Int) -> String {
        MeasureFormat.number(v, decimals: decimals, separator: text.decimalSeparator)
    }

    func optional(_ v: Double?, _ decimals: Int) -> String { v.map { number($0, decimals) } ?? "–" }

    static func fill(_ level: Level) -> PDFColor? {
        switch level {
        case .green: return PDFColor(hex: "#dcfce7")
        case .yellow: return PDFColor(hex: "#fef9c3")
        case .red: return PDFColor(hex: "#fee2e2")
        case .info: return nil
        }
    }
}
