import Charts
import HyponaTrackCore
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The six console charts carry the patient's own scaled thresholds (docs/clinical-rules.md §2–§3),
/// checked against values worked out by hand from config/thresholds.json and risk-model.json.
@Suite struct TrendChartBuilderTests {
    typealias F = TrendChartFixtures
    let profile = F.highRisk()

    func chart(_ id: String, _ charts: [Chart]) -> Chart { charts.first { $0.id == id }! }

    /// The threshold of `kind` in force on a POD.
    func line(_ chart: Chart, _ kind: ThresholdKind, pod: Int) -> Double? {
        chart.thresholds.first { $0.kind == kind }?.value(at: Double(pod))
    }

    func expectClose(_ a: Double?, _ b: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.map { abs($0 - b) < 1e-9 } == true, "\(String(describing: a)) ≠ \(b)", sourceLocation: sourceLocation)
    }

    @Test func theSixChartsComeInTheConsolesOrderOverTheMonitoringWindow() {
        let charts = F.charts(profile, F.demoDays())
        #expect(charts.map(\.id) == ["weight", "fluid", "urine-sg", "symptoms", "sodium", "reaction-time"])
        for c in charts {
            #expect(c.xAxis.firstDay == 1 && c.xAxis.lastDay == 14)
            #expect(c.xAxis.name(ofDay: 5) == "POD 5, 2026-03-07")
        }
    }

    /// German charts say everything in German, the text alternative included, with decimal
    /// commas; what they show (points, lines, scale) is the English charts' to the digit.
    @Test func germanChartsChangeTheWordsAndDecimalsButNotTheValues() {
        let english = F.charts(profile, F.demoDays()), german = F.charts(profile, F.demoDays(), language: .de)
        let weight = chart("weight", german)
        #expect(weight.title == "Gewichtsänderung zum Ausgangswert" && weight.xAxis.title == "Postoperativer Tag")
        #expect(weight.thresholds.first { $0.kind == .yellow }?.label == "Gelb ≥ 1,2 % (POD 1–4, 10–14); ≥ 1,1 % (POD 5–9)")
        #expect(weight.markers.map(\.label) == ["kritisches Fenster POD 5–9"])
        #expect(weight.summary.hasPrefix("Änderung des Morgengewichts gegenüber dem Ausgangswert von 70 kg, in Prozent. Linien: Gelb"),
                "\(weight.summary)")
        #expect(weight.summary.contains("(Risikoklasse hoch), skaliert mit f = 0,8 an POD 1–4, 10–14, f = 0,72 an POD 5–9."),
                "\(weight.summary)")
        #expect(weight.decimalSeparator == "," && weight.noDataText == "Keine Daten erfasst")
        let reaction = chart("reaction-time", german)
        #expect(reaction.thresholds.first { $0.kind == .red }?.label.hasSuffix(" in zwei Sitzungen höchstens 60 min auseinander") == true)
        for (en, de) in zip(english, german) {
            func values(_ c: Chart) -> [[String]] { c.series.map { $0.points.map { "\($0.x) \($0.y) \(String(describing: $0.flag))" } } }
            #expect(en.id == de.id && values(en) == values(de))
            #expect(en.thresholds.map(\.segments) == de.thresholds.map(\.segments) && en.yScale() == de.yScale())
            for phrase in ["Lines:", "days have a value", "No data recorded", "scaled by", "against the", "yellow", "red "] {
                #expect(!de.summary.contains(phrase), "\(de.id): \(de.summary)")
            }
        }
    }

    /// The legends say a threshold as the reasons do (`ClinicalPair`): at the measurement's
    /// precision (sodium whole mmol/L, SG three decimals, % one decimal, scores whole), rounded
    /// so that "≥ x" or "≤ x" holds for every reportable value, days that read alike named
    /// together; the lines are named with the page's level words ("Gelb", "Rot" in German).
    @Test func legendsRoundThresholdsAsTheReasonsDoAndNameTheLevelsInThePagesLanguage() {
        let en = F.charts(profile, F.demoDays()), de = F.charts(profile, F.demoDays(), language: .de)
        // High risk: f = 0.8 outside, 0.72 inside the window.
        #expect(chart("urine-sg", en).thresholds.map(\.label) == ["support ≥ 1.018"], "1.018 and 1.0172 both read ≥ 1.018")
        #expect(chart("sodium", en).thresholds.map(\.label)
                == ["yellow ≤ 135 mmol/L", "red ≤ 131 mmol/L (POD 1–4, 10–14); ≤ 132 mmol/L (POD 5–9)"], "Na ≤ 135.2 / 135.68; ≤ 131.2 / 132.08")
        #expect(chart("symptoms", en).thresholds.map(\.label) == ["yellow ≥ 8", "red ≥ 16 (POD 1–4, 10–14); ≥ 15 (POD 5–9)"], "7.2 reads 8, 14.4 reads 15")
        #expect(chart("reaction-time", en).thresholds.first?.label == "yellow ≥ 8.0 % (POD 1–4, 10–14); ≥ 7.2 % (POD 5–9)")
        let sodium = chart("sodium", de)
        #expect(sodium.thresholds.map(\.tag) == ["Gelb", "Rot"])
        #expect(sodium.thresholds.map(\.label) == ["Gelb ≤ 135 mmol/l", "Rot ≤ 131 mmol/l (POD 1–4, 10–14); ≤ 132 mmol/l (POD 5–9)"])
        #expect(chart("weight", de).thresholds.map(\.label)
                == ["Gelb ≥ 1,2 % (POD 1–4, 10–14); ≥ 1,1 % (POD 5–9)", "Rot ≥ 3,2 % (POD 1–4, 10–14); ≥ 2,9 % (POD 5–9)"])
        let svg = ChartSVG.render(sodium)
        #expect(svg.contains(">Gelb ≤ 135 mmol/l<") && svg.contains(">Rot<"), "the legend and the line's end tag")
        for c in de {
            let drawn = ChartSVG.render(c)
            for english in [">yellow", ">red", "gelb ", "rot ", "1,08", "1,0172"] { #expect(!drawn.contains(english), "\(c.id): \(english)") }
        }
    }

    /// Weight yellow 1.5 × f, red 4.0 × f: f = 0.8 → 1.2 / 3.2; f = 0.72 (POD 5–9) → 1.08 / 2.88.
    @Test func weightThresholdsAreScaledPerDay() {
        let weight = chart("weight", F.charts(profile, F.demoDays()))
        expectClose(line(weight, .yellow, pod: 4), 1.2)
        expectClose(line(weight, .yellow, pod: 5), 1.08)
        expectClose(line(weight, .yellow, pod: 9), 1.08)
        expectClose(line(weight, .yellow, pod: 10), 1.2)
        expectClose(line(weight, .red, pod: 1), 3.2)
        expectClose(line(weight, .red, pod: 7), 2.88)
        #expect(weight.thresholds.first { $0.kind == .yellow }?.label == "yellow ≥ 1.2 % (POD 1–4, 10–14); ≥ 1.1 % (POD 5–9)")
        #expect(weight.markers.map(\.label) == ["critical window POD 5–9"])
        // 70.9 kg on 70 kg = +1.29 % ≥ 1.08 → yellow on POD 6, as the evaluation said.
        let pod6 = weight.series[0].points.first { $0.x == 6 }!
        expectClose(pod6.y, 0.9 / 70 * 100)
        #expect(pod6.flag == .yellow)
        #expect(weight.series[0].points.first { $0.x == 1 }?.flag == nil)
    }

    /// Fluid excess yellow 20 % × f, red 100 % × f of 1500 mL: POD 4 → 1740 / 2700 mL; POD 6 → 1716 / 2580 mL.
    @Test func fluidThresholdsAreMillilitresOverTheLimit() {
        let fluid = chart("fluid", F.charts(profile, F.demoDays()))
        expectClose(line(fluid, .reference, pod: 3), 1500)
        expectClose(line(fluid, .yellow, pod: 4), 1740)
        expectClose(line(fluid, .yellow, pod: 6), 1716)
        expectClose(line(fluid, .red, pod: 4), 2700)
        expectClose(line(fluid, .red, pod: 6), 2580)
        // 1760 mL on POD 6 reaches 1716 mL.
        #expect(fluid.series[0].points.first { $0.x == 6 }?.flag == .yellow)
        #expect(fluid.series[0].points.first { $0.x == 4 }?.flag == nil)
    }

    @Test func withoutALimitOrWithDIActiveTheFluidChartHasNoAlarmLines() {
        let noLimit = chart("fluid", F.charts(F.highRisk { $0.fluidLimitMl = nil }, F.demoDays()))
        #expect(noLimit.thresholds.isEmpty)
        #expect(noLimit.summary.contains("No fluid limit is set"))
        let di = chart("fluid", F.charts(F.highRisk { $0.diabetesInsipidusActive = true }, F.demoDays()))
        #expect(di.thresholds.map(\.kind) == [.reference])
        #expect(chart("urine-sg", F.charts(F.highRisk { $0.diabetesInsipidusActive = true }, F.demoDays())).thresholds.isEmpty)
    }

    /// SG support 1.010 + 0.010 × f: 1.018 at f = 0.8, 1.0172 at f = 0.72.
    @Test func urineSGSupportIsScaledFromItsReference() {
        let sg = chart("urine-sg", F.charts(profile, F.demoDays()))
        #expect(sg.thresholds.map(\.tag) == ["support"])
        expectClose(line(sg, .yellow, pod: 2), 1.018)
        expectClose(line(sg, .yellow, pod: 7), 1.0172)
        #expect(sg.table().rows[6].last == "1.0172")
    }

    /// Urine SG is written to three decimals everywhere the chart writes it: ticks, the
    /// threshold label and table, a point's value (1.020 at f = 1.0, not 1.02).
    @Test func urineSGKeepsThreeDecimals() {
        let standard = F.highRisk { $0.histology = "microadenoma"; $0.stalkDeviation = false }
        let days = [DailyEntry(date: F.date(pod: 2), fluidIntakeMl: 1500, urineSG: 1.01)]
        let sg = chart("urine-sg", F.charts(standard, days))
        #expect(sg.thresholds.first?.label == "support ≥ 1.020 (POD 1–4, 10–14); ≥ 1.019 (POD 5–9)", "\(sg.thresholds)")
        #expect(sg.table().rows[1].dropFirst().first == "1.010", "\(sg.table().rows[1])")
        #expect(sg.table().rows[1].last == "1.020")
        #expect(ChartLayout.layout(sg, options: ChartLayoutOptions()).yTicks.allSatisfy { $0.label.split(separator: ".").last?.count == 3 })
    }

    /// A chart without data and without thresholds (no fluid limit, no RT baseline) shows "No
    /// data recorded" on its quantity's usual axis, like the other empty charts, not on a span
    /// around 0 (negative millilitres).
    @Test func emptyChartsWithoutThresholdsKeepTheirQuantitysAxis() {
        let bare = F.highRisk { $0.fluidLimitMl = nil; $0.baselineReactionTimeMs = nil }
        let charts = F.charts(bare, [])
        for (id, lower, upper) in [("fluid", 0.0, 2000.0), ("urine-sg", 1.0, 1.03), ("reaction-time", 0.0, 30.0)] {
            let c = chart(id, charts)
            #expect(c.thresholds.isEmpty && !c.hasData, "\(id)")
            let g = ChartLayout.layout(c, options: ChartLayoutOptions())
            #expect(abs(g.yScale.lower - lower) < 1e-9 && abs(g.yScale.upper - upper) < 1e-9, "\(id): \(g.yScale)")
            #expect(g.noDataPosition != nil, "\(id)")
        }
    }

    /// Symptom score yellow 10 × f, red 20 × f: 8 / 16 outside, 7.2 / 14.4 inside the window.
    /// POD 6: S = 3·2 + 3·1 + 2·1 + (10 − 6) = 15 ≥ 14.4 → red.
    @Test func symptomScoreIsTheDaysHighestAgainstScaledThresholds() {
        let s = chart("symptoms", F.charts(profile, F.demoDays()))
        expectClose(line(s, .yellow, pod: 2), 8)
        expectClose(line(s, .yellow, pod: 6), 7.2)
        expectClose(line(s, .red, pod: 6), 14.4)
        let pod6 = s.series[0].points.first { $0.x == 6 }!
        #expect(pod6.y == 15)
        #expect(pod6.flag == .red)
    }

    /// Sodium: Na = 140 − deficit × f: yellow 135.2 / 135.68, red 131.2 / 132.08; readings at their time of day.
    @Test func sodiumLinesAreSodiumValuesOnTheLowSide() {
        let na = chart("sodium", F.charts(profile, F.demoDays()))
        expectClose(line(na, .yellow, pod: 2), 135.2)
        expectClose(line(na, .yellow, pod: 6), 135.68)
        expectClose(line(na, .red, pod: 2), 131.2)
        expectClose(line(na, .red, pod: 7), 132.08)
        #expect(na.thresholds.allSatisfy { $0.direction == .atOrBelow })
        let pod6 = na.series[0].points.filter { na.xAxis.day(at: $0.x) == 6 }
        #expect(pod6.map(\.note) == ["08:10", "16:40"])
        #expect(pod6[0].x < pod6[1].x && pod6[0].x > 5.5 && pod6[1].x < 6.5)
        // 134 is the day's lowest and reaches 135.68; 136 on the same day does not.
        #expect(pod6.map(\.flag) == [nil, .yellow])
        #expect(na.series[0].points.first { na.xAxis.day(at: $0.x) == 7 }?.flag == .red)
    }

    /// Reaction time yellow 10 % × f, red 25 % × f (two sessions): 7.2 / 18 on POD 7.
    /// 720 and 730 ms on 600 ms = +20 % and +21.7 %, 30 min apart → confirmed red.
    @Test func reactionTimeSessionsAgainstTheBaseline() {
        let rt = chart("reaction-time", F.charts(profile, F.demoDays()))
        expectClose(line(rt, .yellow, pod: 7), 7.2)
        expectClose(line(rt, .red, pod: 7), 18)
        expectClose(line(rt, .red, pod: 12), 20)
        #expect(rt.thresholds.first { $0.kind == .red }?.label.hasSuffix("in two sessions at most 60 min apart") == true)
        let pod7 = rt.series[0].points.filter { rt.xAxis.day(at: $0.x) == 7 }
        #expect(pod7.map(\.flag) == [.red, .red])
        let noBaseline = chart("reaction-time", F.charts(F.highRisk { $0.baselineReactionTimeMs = nil }, F.demoDays()))
        #expect(noBaseline.series[0].points.isEmpty && noBaseline.thresholds.isEmpty)
    }

    /// Every drawn line agrees with what the engine reported for that day: the same scaled threshold.
    @Test func drawnThresholdsEqualTheEvaluationsReportedThresholds() {
        let days = F.demoDays()
        let evaluations = F.evaluations(profile, days)
        let charts = F.charts(profile, days)
        let weight = chart("weight", charts), symptoms = chart("symptoms", charts)
        for (date, e) in evaluations {
            let pod = profile.pod(at: date)
            for r in e.reasons {
                guard let threshold = r.threshold else { continue }
                let kind: ThresholdKind = r.level == .red ? .red : .yellow
                switch r.code {
                case "weight_gain_pct": expectClose(line(weight, kind, pod: pod), threshold)
                case "symptom_score": expectClose(line(symptoms, kind, pod: pod), threshold)
                default: break
                }
            }
        }
    }

    /// Low risk: f = 1.0 outside and 0.9 inside the critical window (weight yellow 1.5 / 1.35).
    @Test func lowRiskUsesTheWindowFactorOnly() {
        let low = F.highRisk { $0.histology = "microadenoma"; $0.stalkDeviation = false; $0.age = 40; $0.bmi = 28 }
        let weight = chart("weight", F.charts(low, []))
        expectClose(line(weight, .yellow, pod: 3), 1.5)
        expectClose(line(weight, .yellow, pod: 5), 1.35)
        #expect(weight.summary.contains("risk class low"))
        #expect(weight.summary.contains("f = 1 on POD 1–4, 10–14, f = 0.9 on POD 5–9"))
    }

    @Test func aPatientWithNoDaysGetsSixChartsThatSayNoDataRecorded() {
        let charts = F.charts(profile, [])
        #expect(charts.count == 6)
        for c in charts {
            #expect(!c.hasData)
            #expect(c.summary.hasSuffix("No data recorded."))
            let g = ChartLayout.layout(c)
            #expect(g.noDataPosition != nil)
            for t in c.thresholds { #expect(t.segments.allSatisfy { g.yScale.contains($0.y) }) }
        }
    }

    @Test func theDateAxisLabelsDaysByDate() {
        let weight = chart("weight", F.charts(profile, F.demoDays(), axis: .date))
        #expect(weight.xAxis.title == "Date")
        #expect(weight.xAxis.label(ofDay: 5) == "03-07")
        #expect(weight.xAxis.name(ofDay: 5) == "2026-03-07 (POD 5)")
    }

    @Test func aDayOutsideTheWindowWidensTheAxisRatherThanVanishing() {
        let late = DailyEntry(date: F.date(pod: 16), weightMorningKg: 70.2)
        let weight = chart("weight", F.charts(profile, [late]))
        #expect(weight.xAxis.lastDay == 16)
        #expect(ChartLayout.layout(weight).series[0].points.count == 1)
    }
}
