import Charts
import HyponaTrackCore

/// The six charts (docs/product.md, "The clinician console"), each computed as its rule in
/// docs/clinical-rules.md §3 computes the value it judges.
extension TrendChartBuilder.Context {
    /// `weight_gain_pct`: morning weight against the baseline.
    func weightChart() -> Chart {
        let points = days.compactMap { day -> ChartPoint? in
            guard let kg = day.weightMorningKg else { return nil }
            let pct = profile.weightChangePercent(kg)
            return ChartPoint(x: Double(pod(day)), y: pct, flag: flag(.weightGainPercent, on: day.date, value: pct),
                              note: "\(number(kg, decimals: 2, trimZeros: true)) kg")
        }
        let unit = "%"
        let lines = graded(thresholds.weightGainPercent, unit: unit, decimals: MeasureFormat.percentDecimals, direction: .atOrAbove) { $0 }
        let baseline = number(profile.baselineWeightKg, decimals: 2, trimZeros: true)
        let name = s("Weight change", "Gewichtsänderung")
        return chart(id: "weight", title: s("Weight change from baseline", "Gewichtsänderung zum Ausgangswert"),
                     lead: s("Morning weight change against the baseline of \(baseline) kg, in percent.",
                             "Änderung des Morgengewichts gegenüber dem Ausgangswert von \(baseline) kg, in Prozent."),
                     axis: ChartYAxis(title: name, unit: unit, include: [0], minimumSpan: 2, valueDecimals: 1),
                     series: ChartSeries(name: name, points: points), thresholds: lines)
    }

    /// `fluid_excess`: intake against the limit. The rule grades (intake − limit) / limit × 100, so
    /// a threshold of p % lies at limit × (1 + p / 100) mL.
    func fluidChart() -> Chart {
        let limit = profile.fluidLimitMl.flatMap { $0 > 0 ? $0 : nil }
        let active = limit != nil && !profile.diabetesInsipidusActive
        func toMl(_ pct: Double) -> Double { (limit ?? 0) * (1 + pct / 100) }
        let points = days.compactMap { day -> ChartPoint? in
            guard let ml = day.fluidIntakeMl else { return nil }
            return ChartPoint(x: Double(pod(day)), y: ml,
                              flag: active ? flag(.fluidExcess, on: day.date, value: ml, toChartUnit: toMl) : nil)
        }
        var lines: [ChartThreshold] = []
        var lead = s("Daily fluid intake in mL", "Tägliche Trinkmenge in mL")
        if let limit {
            let tag = s("limit", "Grenze")
            let text = "\(tag) \(ClinicalNumberFormat(language: language).number(limit, decimals: 0)) \(units.millilitres)"
            lines.append(ChartThreshold(kind: .reference, direction: .atOrAbove, tag: tag, label: text,
                                        segments: [ThresholdSegment(fromX: xAxis.domain.lowerBound, toX: xAxis.domain.upperBound,
                                                                    y: limit)]))
            lead += s(" against the patient's \(text).", " gegenüber der \(text) dieses Patienten.")
            if active {
                lines += graded(thresholds.fluidExcessPercent, unit: units.millilitres, decimals: 0, direction: .atOrAbove, convert: toMl)
            } else {
                lead += s(" The fluid rules are off while diabetes insipidus is active.",
                          " Die Trinkmengen-Regeln ruhen, solange ein Diabetes insipidus aktiv ist.")
            }
        } else {
            lead += s(". No fluid limit is set, so the fluid rules are off.",
                      ". Es ist keine Trinkmengen-Grenze gesetzt, daher ruhen die Trinkmengen-Regeln.")
        }
        let name = s("Fluid intake", "Trinkmenge")
        return chart(id: "fluid", title: name, lead: lead,
                     axis: ChartYAxis(title: name, unit: units.millilitres, include: limit.map { [$0] } ?? [],
                                      minimumSpan: 500, valueDecimals: 0, emptyRange: [0, 2000]),
                     series: ChartSeries(name: name, points: points), thresholds: lines)
    }

    /// `urine_sg_support`: SUPPORT only (§5.2), and only with an active fluid limit.
    func urineSGChart() -> Chart {
        let points = days.compactMap { day -> ChartPoint? in
            day.urineSG.map { ChartPoint(x: Double(pod(day)), y: $0, flag: flag(.urineSGSupport, on: day.date, value: $0)) }
        }
        let active = profile.fluidLimitMl.map { $0 > 0 } == true && !profile.diabetesInsipidusActive
        var lead = s("Morning urine specific gravity.", "Spezifisches Gewicht des Morgenurins.")
        var lines: [ChartThreshold] = []
        if active, let line = stepped(.yellow, .atOrAbove, tag: s("support", "Stütze"), unit: "", decimals: MeasureFormat.urineSGDecimals,
                                      value: { thresholds.urineSGSupport.yellow(scaledBy: $0) }) {
            lines.append(line)
            lead += s(" At or above the support line with intake at or over the limit it adds to another signal; alone it changes nothing.",
                      " Auf oder über der Stützlinie, bei einer Trinkmenge auf oder über der Grenze, verstärkt es ein anderes Signal; allein ändert es nichts.")
        } else {
            lead += s(" SG support needs an active fluid limit, so it is off for this patient.",
                      " Die SG-Stütze braucht eine aktive Trinkmengen-Grenze und ruht daher bei diesem Patienten.")
        }
        let name = s("Urine SG", "Urin-SG")
        return chart(id: "urine-sg", title: s("Urine specific gravity", "Spezifisches Gewicht des Urins"), lead: lead,
                     axis: ChartYAxis(title: name, unit: "", minimumSpan: 0.01, valueDecimals: 3, emptyRange: [1.0, 1.03],
                                      minimumDecimals: MeasureFormat.urineSGDecimals),
                     series: ChartSeries(name: name, points: points), thresholds: lines)
    }

    /// `symptom_score`: the day's highest total score S.
    func symptomChart() -> Chart {
        let weights = thresholds.symptomWeights
        let points = days.compactMap { day -> ChartPoint? in
            guard let top = day.symptoms.max(by: { $0.totalScore(weights) < $1.totalScore(weights) }) else { return nil }
            let score = Double(top.totalScore(weights))
            return ChartPoint(x: Double(pod(day)), y: score, flag: flag(.symptomScore, on: day.date, value: score),
                              note: top.slot == .morning ? s("morning", "morgens") : s("evening", "abends"))
        }
        let name = s("Symptom score", "Symptom-Score")
        return chart(id: "symptoms", title: name,
                     lead: s("The day's highest symptom score S (0–52).", "Der höchste Symptom-Score S des Tages (0–52)."),
                     axis: ChartYAxis(title: name, unit: "", include: [0], minimumSpan: 10, valueDecimals: 0),
                     series: ChartSeries(name: name, points: points),
                     thresholds: graded(thresholds.symptomScore, unit: "", decimals: 0, direction: .atOrAbove) { $0 })
    }

    /// `sodium_low`: the rule grades the deficit normal − Na, so a deficit threshold d lies at Na = normal − d.
    func sodiumChart() -> Chart {
        let normal = thresholds.normalSodium
        let points = days.flatMap { day in
            day.labSodium.map { lab in
                ChartPoint(x: x(of: lab.time, filedUnder: day.date), y: lab.value,
                           flag: flag(.sodiumLow, on: day.date, value: lab.value, direction: .atOrBelow) { normal - $0 },
                           note: clock(lab.time))
            }
        }
        let name = s("Lab sodium", "Labornatrium")
        return chart(id: "sodium", title: name,
                     lead: s("Lab sodium values in mmol/L, each at its time of day; low values are the alarming side.",
                             "Labornatrium in mmol/l, jeder Wert zu seiner Tageszeit; niedrige Werte sind die bedenkliche Seite."),
                     axis: ChartYAxis(title: s("Sodium", "Natrium"), unit: units.sodium, minimumSpan: 10, valueDecimals: 1),
                     series: ChartSeries(name: name, points: points),
                     thresholds: graded(thresholds.sodiumDeficit, unit: units.sodium, decimals: 0, direction: .atOrBelow) { normal - $0 })
    }

    /// `reaction_time`: each session's slowing against the baseline; red needs two sessions.
    func reactionTimeChart() -> Chart {
        guard let baseline = profile.baselineReactionTimeMs, baseline > 0 else {
            return chart(id: "reaction-time", title: s("Reaction-time slowing", "Verlangsamung der Reaktionszeit"),
                         lead: s("No reaction-time baseline is recorded, so slowing cannot be computed.",
                                 "Es ist kein Ausgangswert der Reaktionszeit erfasst, daher lässt sich keine Verlangsamung berechnen."),
                         axis: ChartYAxis(title: s("Slowing", "Verlangsamung"), unit: "%", include: [0], minimumSpan: 10, valueDecimals: 1,
                                          emptyRange: [0, 30]),
                         series: ChartSeries(name: s("Slowing", "Verlangsamung"), points: []), thresholds: [])
        }
        let points = days.flatMap { day in
            day.reactionTests.map { test in
                let slowing = test.slowingPercent(baselineMs: baseline)
                return ChartPoint(x: x(of: test.time, filedUnder: day.date), y: slowing,
                                  flag: flag(.reactionTime, on: day.date, value: slowing),
                                  note: "\(clock(test.time)), \(number(test.medianMs, decimals: 0)) ms")
            }
        }
        var lines = graded(thresholds.reactionTimePercent, unit: "%", decimals: MeasureFormat.percentDecimals, direction: .atOrAbove) { $0 }
        let minutes = number(thresholds.reactionConfirmationMinutes, decimals: 0)
        for i in lines.indices where lines[i].kind == .red {
            lines[i].label += s(" in two sessions at most \(minutes) min apart", " in zwei Sitzungen höchstens \(minutes) min auseinander")
        }
        let reference = number(baseline, decimals: 0), name = s("Slowing", "Verlangsamung")
        return chart(id: "reaction-time", title: s("Reaction-time slowing", "Verlangsamung der Reaktionszeit"),
                     lead: s("Each reaction-time session's median against the baseline of \(reference) ms, in percent.",
                             "Median jeder Reaktionszeit-Sitzung gegenüber dem Ausgangswert von \(reference) ms, in Prozent."),
                     axis: ChartYAxis(title: name, unit: "%", include: [0], minimumSpan: 10, valueDecimals: 1),
                     series: ChartSeries(name: name, points: points, joinsDaysApart: 1), thresholds: lines)
    }
}
