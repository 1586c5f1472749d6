import Charts

/// The report's words on a chart built by `TrendChartBuilder` (which speaks English): for German
/// the visible words and the decimal separator are replaced before the chart is laid out. Only
/// text changes — series, thresholds and scales stay exactly as built, so the paper and the
/// console show the same lines.
struct ChartWording {
    let text: ReportText

    func apply(_ chart: Chart) -> Chart {
        var c = chart
        c.noDataText = text.noData
        guard text.language == .de else { return c }
        c.decimalSeparator = ","
        c.title = Self.words[c.title] ?? c.title
        c.xAxis.title = Self.words[c.xAxis.title] ?? c.xAxis.title
        c.yAxis.title = Self.words[c.yAxis.title] ?? c.yAxis.title
        for i in c.series.indices { c.series[i].name = Self.words[c.series[i].name] ?? c.series[i].name }
        for i in c.thresholds.indices {
            let tag = c.thresholds[i].tag, german = Self.tags[tag] ?? tag
            var label = c.thresholds[i].label
            if label.hasPrefix(tag) { label = german + label.dropFirst(tag.count) }
            for (en, de) in Self.phrases { label = label.replacingOccurrences(of: en, with: de) }
            c.thresholds[i].tag = german
            c.thresholds[i].label = Self.decimalCommas(label)
        }
        for i in c.markers.indices {
            c.markers[i].label = c.markers[i].label.replacingOccurrences(of: "critical window", with: "kritisches Fenster")
        }
        return c
    }

    static let words = [
        "Weight change from baseline": "Gewichtsänderung zum Ausgangswert", "Weight change": "Gewichtsänderung",
        "Fluid intake": "Trinkmenge", "Urine specific gravity": "Spezifisches Gewicht des Urins", "Urine SG": "Urin-SG",
        "Symptom score": "Symptom-Score", "Lab sodium": "Labornatrium", "Sodium": "Natrium",
        "Reaction-time slowing": "Verlangsamung der Reaktionszeit", "Slowing": "Verlangsamung",
        "Post-operative day": "Postoperativer Tag", "Date": "Datum",
    ]
    static let tags = ["yellow": "gelb", "red": "rot", "limit": "Grenze", "support": "Stütze"]
    static let phrases = [(" in two sessions at most ", " in zwei Sitzungen höchstens "), (" min apart", " min auseinander")]

    /// "3.6" → "3,6" (a point between digits only).
    static func decimalCommas(_ s: String) -> String {
        let chars = Array(s)
        var out = ""
        for (i, ch) in chars.enumerated() {
            if ch == ".", i > 0, i + 1 < chars.count, chars[i - 1].isNumber, chars[i + 1].isNumber { out.append(",") } else { out.append(ch) }
        }
        return out
    }
}
