import HyponaTrackCore

/// The symptom items of each day (docs/product.md, third round, C, "The report"): the five
/// items and the VAS of each check, the day's vomiting and emergency symptoms in words. One row
/// a day, one line a check, items in narrow columns under a legend.
extension ReportComposer {
    func symptomTable() -> ReportTable? {
        let items = text.itemColumns
        var columns = [ReportTable.Column(title: text.dayColumn, share: 0.15), .init(title: text.checkColumn, share: 0.15)]
        columns += items.map { ReportTable.Column(title: $0, share: 0.05) }
        columns += [.init(title: text.vasColumn, share: 0.06), .init(title: text.vomitingColumn, share: 0.11),
                    .init(title: text.emergencyColumn, share: 0.28)]
        let rows = content.days.compactMap { d -> ReportTable.Row? in
            guard let e = d.entry, !e.symptoms.isEmpty || e.vomitingEpisodes != nil || !e.emergencySymptoms.isEmpty else { return nil }
            let checks = e.symptoms.sorted { $0.time.epochSeconds < $1.time.epochSeconds }
            func column(_ value: (SymptomEntry) -> Int) -> String {
                checks.isEmpty ? "–" : checks.map { "\(value($0))" }.joined(separator: "\n")
            }
            let slots = checks.isEmpty ? "–" : checks.map { "\(text.slot($0.slot)) \(clock($0.time.epochSeconds))" }.joined(separator: "\n")
            let emergency = e.emergencySymptoms.sorted().map(text.emergencySymptom).joined(separator: ", ")
            var row = ReportTable.Row(cells: ["\(day(d.date)) (\(d.pod))", slots, column(\.nausea), column(\.headache),
                                              column(\.fatigue), column(\.confusion), column(\.muscleCramps), column(\.vas),
                                              e.vomitingEpisodes.map(String.init) ?? "–", emergency.isEmpty ? "–" : emergency])
            if !e.emergencySymptoms.isEmpty, let fill = Self.fill(.red) { row.fills[9] = fill }
            return row
        }
        return rows.isEmpty ? nil : ReportTable(columns: columns, rows: rows)
    }

    /// `HH:MM` in the patient's time zone.
    func clock(_ epochSeconds: Double) -> String {
        String(content.zone.timestamp(atEpochSeconds: epochSeconds).description.dropFirst(11).prefix(5))
    }
}
