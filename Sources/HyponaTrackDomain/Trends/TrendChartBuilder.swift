import Charts
import HyponaTrackCore

/// Fills the six trend charts of a patient (docs/product.md, "The clinician console": weight
/// change, fluid against the limit, urine SG, symptom score, lab sodium, reaction-time slowing)
/// from the stored data. The same charts go into the console's SVG and the PDF report, in the
/// page's or report's language: titles, axes, threshold labels and the text alternative alike.
///
/// Thresholds are never restated here: each day's factor f comes from
/// `EscalationEngine.factor(pod:riskClass:)` and each adjusted value from the rule file's
/// `ScaledThreshold` (docs/clinical-rules.md §2–§3), exactly as the engine compares them. A point
/// is flagged yellow or red only when the day's stored evaluation reported that code at that level.
public struct TrendChartBuilder: Sendable {
    /// How days are labelled along the x axis.
    public enum DayAxis: Sendable {
        /// Post-operative days ("5"), named "POD 5, 2026-03-07".
        case pod
        /// Dates ("03-07"), named "2026-03-07 (POD 5)".
        case date
    }

    public let engine: EscalationEngine

    public init(engine: EscalationEngine) { self.engine = engine }

    public init(rules: RuleSet) { self.init(engine: EscalationEngine(rules: rules)) }

    /// The six charts, in the console's order: weight, fluid, urine SG, symptoms, sodium, reaction time.
    /// - Parameters:
    ///   - days: the patient's stored days (any range; days outside the window widen the axis so no value is hidden).
    ///   - evaluations: the latest stored evaluation of each date (`EvaluationRepository.latestPerDate`).
    ///   - window: the monitoring window the x axis spans.
    ///   - language: what the charts say (numbers with a decimal comma in German).
    public func charts(profile: PatientProfile, days: [DailyEntry], evaluations: [LocalDate: StoredEvaluation],
                       window: MonitoringWindow, axis: DayAxis = .pod, language: Language = .en) -> [Chart] {
        let context = Context(builder: self, profile: profile, days: days, evaluations: evaluations, window: window, axis: axis,
                              language: language)
        return [context.weightChart(), context.fluidChart(), context.urineSGChart(), context.symptomChart(),
                context.sodiumChart(), context.reactionTimeChart()]
    }

    /// What every chart of one patient shares: the day range, the axis, f per day, the evaluations.
    struct Context: Bilingual {
        let language: Language
        let profile: PatientProfile
        let days: [DailyEntry]
        let evaluations: [LocalDate: StoredEvaluation]
        let thresholds: ThresholdRules
        let riskClass: RiskClass
        let podRange: ClosedRange<Int>
        let xAxis: ChartXAxis
        /// f for each POD of `podRange`.
        let factors: [Int: Double]

        var units: ClinicalUnits { ClinicalUnits(language: language) }

        init(builder: TrendChartBuilder, profile: PatientProfile, days: [DailyEntry],
             evaluations: [LocalDate: StoredEvaluation], window: MonitoringWindow, axis: DayAxis, language: Language) {
            self.language = language
            self.profile = profile
            self.days = days.sorted { $0.date < $1.date }
            self.evaluations = evaluations
            thresholds = builder.engine.rules.thresholds
            riskClass = builder.engine.risk.assess(profile).riskClass
            var first = profile.pod(at: window.first), last = max(profile.pod(at: window.last), first)
            for day in days {
                first = min(first, profile.pod(at: day.date))
                last = max(last, profile.pod(at: day.date))
            }
            podRange = first...last
            let pods = Array(podRange)
            switch axis {
            case .pod:
                xAxis = ChartXAxis(title: language.s("Post-operative day", "Postoperativer Tag"), firstDay: first, lastDay: last,
                                   dayLabels: pods.map(String.init),
                                   dayNames: pods.map { "POD \($0), \(Vocabulary(language: language).date(profile.date(ofPOD: $0)))" })
            case .date:
                xAxis = ChartXAxis(title: language.s("Date", "Datum"), firstDay: first, lastDay: last,
                                   dayLabels: pods.map { String(profile.date(ofPOD: $0).description.dropFirst(5)) },
                                   dayNames: pods.map { "\(Vocabulary(language: language).date(profile.date(ofPOD: $0))) (POD \($0))" })
            }
            var factors: [Int: Double] = [:]
            for pod in podRange { factors[pod] = builder.engine.factor(pod: pod, riskClass: riskClass) }
            self.factors = factors
        }

        func pod(_ day: DailyEntry) -> Int { profile.pod(at: day.date) }

        /// The shaded critical window, when it scales anything.
        var markers: [ChartMarker] {
            let window = thresholds.criticalWindow
            guard thresholds.windowFactor != 1 else { return [] }
            return [ChartMarker(label: s("critical window", "kritisches Fenster") + " POD \(window.lowerBound)–\(window.upperBound)",
                                fromX: Double(window.lowerBound) - 0.5, toX: Double(window.upperBound) + 0.5)]
        }

        /// The level the day's evaluation reported for `code`, with its scaled threshold.
        func reported(_ code: ReasonCode, on date: LocalDate) -> (kind: ThresholdKind, threshold: Double?)? {
            guard let reason = evaluations[date]?.reasons.first(where: { $0.code == code.rawValue }) else { return nil }
            switch reason.level {
            case .red: return (.red, reason.threshold)
            case .yellow: return (.yellow, reason.threshold)
            case .green, .info: return nil
            }
        }

        /// A point's flag: the level reported for `code` that day, for a value that reaches the
        /// reported threshold (converted to the chart's unit). Several readings of a day share one
        /// evaluation; only those at or past its threshold carry the flag.
        func flag(_ code: ReasonCode, on date: LocalDate, value: Double, direction: ThresholdDirection = .atOrAbove,
                  toChartUnit: (Double) -> Double = { $0 }) -> ThresholdKind? {
            guard let reported = reported(code, on: date) else { return nil }
            guard let threshold = reported.threshold.map(toChartUnit) else { return reported.kind }
            let tolerance = thresholds.tolerance
            let reaches = direction == .atOrAbove ? value >= threshold - tolerance : value <= threshold + tolerance
            return reaches ? reported.kind : nil
        }

        /// x of a timed reading: inside its day's slot at its local time of day (the offset it was recorded with).
        func x(of time: Timestamp, filedUnder date: LocalDate) -> Double {
            let day = Double(profile.pod(at: date))
            if time.localDate < date { return day - 0.45 }
            if time.localDate > date { return day + 0.45 }
            let seconds = (time.epochSeconds + Double(time.utcOffsetSeconds)).truncatingRemainder(dividingBy: 86_400)
            let fraction = (seconds < 0 ? seconds + 86_400 : seconds) / 86_400
            return day - 0.5 + min(max(fraction, 0.05), 0.95)
        }

        /// `value` as the charts write numbers: `ChartNumber`, with a decimal comma in German.
        func number(_ value: Double, decimals: Int, trimZeros: Bool = false, minimumDecimals: Int = 0) -> String {
            let text = ChartNumber.format(value, decimals: decimals, trimZeros: trimZeros, minimumDecimals: minimumDecimals)
            return language == .de ? text.replacingOccurrences(of: ".", with: ",") : text
        }

        /// "08:15" in the reading's own offset.
        func clock(_ time: Timestamp) -> String {
            let seconds = Int((time.epochSeconds + Double(time.utcOffsetSeconds)).rounded(.down))
            let minuteOfDay = ((seconds % 86_400 + 86_400) % 86_400) / 60
            return LocalTime(hour: minuteOfDay / 60, minute: minuteOfDay % 60)?.description ?? ""
        }
    }
}
