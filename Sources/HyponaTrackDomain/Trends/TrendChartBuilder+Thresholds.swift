import Charts
import HyponaTrackCore

/// Threshold lines and the text alternative, shared by the six charts.
extension TrendChartBuilder.Context {
    /// The yellow and red lines of a §3 threshold, each day scaled by that day's f, named by the
    /// level words the reasons use ("yellow", German "Gelb"). `convert` maps the rule's unit to
    /// the chart's (a deficit to a sodium, a percent to mL); `decimals` is the precision the
    /// measurement is reported in.
    func graded(_ threshold: ScaledThreshold, unit: String, decimals: Int, direction: ThresholdDirection,
                convert: (Double) -> Double) -> [ChartThreshold] {
        [stepped(.yellow, direction, tag: ReasonWording.levelWord(.yellow, language), unit: unit, decimals: decimals) {
            threshold.yellow(scaledBy: $0).map(convert) },
         stepped(.red, direction, tag: ReasonWording.levelWord(.red, language), unit: unit, decimals: decimals) {
            threshold.red(scaledBy: $0).map(convert) }]
            .compactMap { $0 }
    }

    /// A step line over the chart's days: one segment per run of days with the same value, drawn
    /// where the rule compares. The legend says each value as the reasons do (`ClinicalPair`): at
    /// the measurement's precision (`decimals`), rounded in the direction that keeps "≥ x" or
    /// "≤ x" true for every reportable value, so a scaled sodium limit of 130.1 reads "≤ 130" and
    /// an SG support line of 1.0172 "≥ 1.018"; days whose values read alike are named together.
    /// `value` gets the day's f; nil (no such threshold) gives no line.
    func stepped(_ kind: ThresholdKind, _ direction: ThresholdDirection, tag: String, unit: String, decimals: Int,
                 value: (Double) -> Double?) -> ChartThreshold? {
        var perDay: [Int: Double] = [:]
        for pod in podRange {
            guard let f = factors[pod], let v = value(f) else { return nil }
            perDay[pod] = v
        }
        let runs = Self.runs(perDay, in: podRange)
        let segments = runs.map { ThresholdSegment(fromX: Double($0.days.lowerBound) - 0.5, toX: Double($0.days.upperBound) + 0.5,
                                                   y: $0.value) }
        let suffix = unit.isEmpty ? "" : " " + unit
        let comparison: ClinicalPair.Comparison = direction == .atOrAbove ? .atLeast : .atMost
        let format = ClinicalNumberFormat(language: language)
        var shown: [(text: String, days: [ClosedRange<Int>])] = []
        for run in runs {
            let text = format.number(ClinicalPair.threshold(run.value, decimals, comparison), decimals: decimals)
            if let i = shown.firstIndex(where: { $0.text == text }) { shown[i].days.append(run.days) } else { shown.append((text, [run.days])) }
        }
        let text = shown.map { group -> String in
            let days = shown.count > 1 ? " (POD " + Self.describe(group.days) + ")" : ""
            return "\(direction.symbol) \(group.text)\(suffix)\(days)"
        }.joined(separator: "; ")
        return ChartThreshold(kind: kind, direction: direction, tag: tag, label: tag + " " + text, segments: segments)
    }

    /// Assembles a chart with its text alternative: the lead, the lines, how they were scaled, the data count.
    func chart(id: String, title: String, lead: String, axis: ChartYAxis, series: ChartSeries,
               thresholds lines: [ChartThreshold]) -> Chart {
        var summary = lead
        if !lines.isEmpty { summary += s(" Lines: ", " Linien: ") + lines.map(\.label).joined(separator: "; ") + "." }
        if lines.contains(where: { $0.kind != .reference }) {
            let f = Self.grouped(Self.runs(factors, in: podRange)).map { group in
                "f = " + number(group.value, decimals: 4, trimZeros: true) + s(" on POD ", " an POD ") + Self.describe(group.days)
            }
            let risk = Vocabulary(language: language).riskClass(riskClass)
            summary += s(" Thresholds are this patient's own (risk class \(risk)), scaled by ",
                         " Die Schwellen gelten für diesen Patienten (Risikoklasse \(risk)), skaliert mit ")
                + f.joined(separator: ", ") + "."
        }
        let dataDays = Set(series.points.map { xAxis.day(at: $0.x) }).count
        summary += series.points.isEmpty ? s(" No data recorded.", " Keine Daten erfasst.")
            : s(" \(dataDays) of \(xAxis.dayCount) days have a value.", " \(dataDays) von \(xAxis.dayCount) Tagen haben einen Wert.")
        return Chart(id: id, title: title, summary: summary, xAxis: xAxis, yAxis: axis, series: [series],
                     thresholds: lines, markers: lines.contains { $0.kind != .reference } ? markers : [],
                     noDataText: s("No data recorded", "Keine Daten erfasst"), decimalSeparator: s(".", ","),
                     flagWords: [.yellow: s("yellow", "Gelb"), .red: s("red", "Rot")])
    }

    /// Runs of consecutive days with the same value, in day order.
    static func runs(_ perDay: [Int: Double], in range: ClosedRange<Int>) -> [(value: Double, days: ClosedRange<Int>)] {
        var runs: [(value: Double, days: ClosedRange<Int>)] = []
        for day in range {
            guard let v = perDay[day] else { continue }
            if let last = runs.last, last.days.upperBound == day - 1, abs(last.value - v) < 1e-12 {
                runs[runs.count - 1].days = last.days.lowerBound...day
            } else {
                runs.append((v, day...day))
            }
        }
        return runs
    }

    /// Runs with the same value together, in order of first appearance.
    static func grouped(_ runs: [(value: Double, days: ClosedRange<Int>)]) -> [(value: Double, days: [ClosedRange<Int>])] {
        var groups: [(value: Double, days: [ClosedRange<Int>])] = []
        for run in runs {
            if let i = groups.firstIndex(where: { abs($0.value - run.value) < 1e-12 }) {
                groups[i].days.append(run.days)
            } else {
                groups.append((run.value, [run.days]))
            }
        }
        return groups
    }

    /// "1–4, 10–14".
    static func describe(_ ranges: [ClosedRange<Int>]) -> String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }.joined(separator: ", ")
    }
}
