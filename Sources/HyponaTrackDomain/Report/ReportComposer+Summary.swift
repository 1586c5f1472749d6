import HyponaTrackCore

/// Page 1's summary and baseline (docs/product.md, third round, C, "The report"): where the
/// patient stands now, then who the patient is and every Kat A/B/C item with its points.
extension ReportComposer {
    /// The current level and since when (docs/product.md, "Settled details", C — wording):
    /// with an unresolved alert its level from its first day, else the last evaluated day's level
    /// from the first day of the run at or above it (days without an evaluation do not break it).
    struct Standing: Equatable {
        var level: Level
        var since: LocalDate
        /// The unresolved alert it comes from.
        var alertId: Int64?
    }

    var standing: Standing? {
        let unresolved = content.alerts.filter { $0.state != .resolved && $0.mergedInto == nil }
        if let first = unresolved.min(by: { ($0.date, $0.id) < ($1.date, $1.id) }), let level = unresolved.map(\.level).max() {
            return Standing(level: level, since: first.date, alertId: first.id)
        }
        let evaluated = content.days.compactMap { day in day.evaluation?.level.map { (date: day.date, level: $0) } }
        guard let last = evaluated.last else { return nil }
        var since = last.date
        for day in evaluated.reversed() {
            guard day.level >= last.level else { break }
            since = day.date
        }
        return Standing(level: last.level, since: since, alertId: nil)
    }

    func summaryFacts() -> [(label: String, value: String)] {
        var current = text.notEvaluatedYet
        if let s = standing {
            current = text.since(text.level(s.level), dayWithPOD(s.since, content.profile.pod(at: s.since)))
            if let id = s.alertId { current += " (\(text.ofAlert(id)))" }
        }
        let live = content.alerts.filter { $0.mergedInto == nil }
        let unacknowledged = live.filter { $0.state == .open }.map { alertLine($0) }
            + live.filter { $0.state == .acknowledged && $0.newDataAt != nil }.map { alertLine($0) + ", " + text.newDataSinceAcknowledged }
        let red = content.days.first { $0.evaluation?.level == .red }
        let lab = content.labs.last.map { "\(number($0.value, 1)) \(text.sodiumUnit), \(time($0.time.epochSeconds)) (POD \($0.pod))" }
        let contact = content.contacts.last.map { c in
            ([time(Double(c.at) / 1000), text.vocabulary.contactOutcome(c.outcome), Principal.displayName(ofActor: c.by)]
                + (c.alertId.map { ["#\($0)"] } ?? [])).filter { !$0.isEmpty }.joined(separator: ", ")
        }
        return [
            (text.currentLevel, current),
            (text.unacknowledgedAlerts, unacknowledged.isEmpty ? text.none : unacknowledged.joined(separator: "\n")),
            (text.firstRedDay, red.map { dayWithPOD($0.date, $0.pod) } ?? text.none),
            (text.lastLabSodium, lab ?? text.none),
            (text.lastContact, contact ?? text.none),
        ]
    }

    /// "#12 Red, 6.12.2026 (POD 7)", the last day too when it covers more.
    func alertLine(_ a: AlertView) -> String {
        var days = dayWithPOD(a.date, a.pod)
        if let last = a.lastDate, last != a.date { days = "\(day(a.date)) – \(day(last)) (POD \(a.pod)–\(content.profile.pod(at: last)))" }
        return "#\(a.id) \(text.level(a.level)), \(days)"
    }

    func baselineFacts() -> [(label: String, value: String)] {
        let p = content.profile, r = content.risk
        var risk = text.riskClass(r.riskClass) + " (\(r.riskScore))"
        if r.classOverridden { risk += ", " + text.overridden }
        var points = "\(r.katA) / \(r.katB) / \(r.katC)"
        if r.katBPending { points += " — " + text.katBPending }
        var weight = "\(number(p.baselineWeightKg, 2)) kg"
        if p.baselineIsPreOp { weight += " (\(text.preOp))" }
        return [
            (text.age, text.years(p.age)), (text.sex, text.sex(p.sex)), (text.histology, text.histology(p.histology)),
            (text.baselineWeight, weight),
            (text.fluidLimit, p.fluidLimitMl.map { "\(number($0, 0)) \(text.perDay)" } ?? text.noLimit),
            (text.desmopressin, text.desmopressin(prescribed: p.desmopressinPrescribed, diabetesInsipidus: p.diabetesInsipidusActive)),
            (text.consent, text.consent(version: p.consentVersion, date: p.consentDate.map(day))),
            (text.riskClass, risk), (text.riskPoints, points),
        ]
    }

    /// Every Kat A/B/C item: its rule, the profile's value, its points.
    func factorTable() -> ReportTable {
        let columns = [ReportTable.Column(title: text.katColumn, share: 0.06), .init(title: text.factorColumn, share: 0.50),
                       .init(title: text.valueColumn, share: 0.34), .init(title: text.pointsColumn, share: 0.10)]
        let rules = content.riskRules
        return ReportTable(columns: columns, rows: content.riskFactors.map { f in
            ReportTable.Row(cells: [f.category.rawValue, text.factor(f.item, rules: rules) { number($0, 1) },
                                    text.factorValue(f.item, rules: rules, number: number), "\(f.points)"])
        })
    }

    /// A date as the language writes it: `2026-12-06`, `6.12.2026`.
    func day(_ d: LocalDate) -> String { Vocabulary(language: text.language).date(d) }

    func dayWithPOD(_ d: LocalDate, _ pod: Int) -> String { "\(day(d)) (POD \(pod))" }
}
