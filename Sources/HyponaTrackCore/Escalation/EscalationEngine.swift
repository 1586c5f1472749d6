/// Decides the traffic light of a patient-day (docs/clinical-rules.md §2–§5). Each signal lives in its
/// own extension file (`Signals+*.swift`) and reads like its row of the spec; this file scales the
/// thresholds and combines the fired codes.
public struct EscalationEngine: Sendable {
    public let rules: RuleSet
    public let risk: RiskEngine
    private let groupOf: [ReasonCode: Int]

    public init(rules: RuleSet) {
        self.rules = rules
        self.risk = RiskEngine(rules: rules.riskModel)
        var groupOf: [ReasonCode: Int] = [:]
        for (index, group) in rules.thresholds.groups.enumerated() {
            for code in group.codes { if let c = ReasonCode(rawValue: code) { groupOf[c] = index } }
        }
        self.groupOf = groupOf
    }

    /// Evaluates `date` for a patient. `days` may hold any of the patient's days; the rules read
    /// the day itself and the two calendar days before it. `assessment` may be passed when the
    /// caller already scored the profile.
    public func evaluate(profile: PatientProfile, days: [DailyEntry], date: LocalDate,
                         assessment: RiskAssessment? = nil) -> Evaluation {
        var today: DailyEntry?, previous: DailyEntry?, twoBefore: DailyEntry?
        let d = date.daysSinceEpoch
        for day in days {
            switch day.date.daysSinceEpoch - d {
            case 0: today = day
            case -1: previous = day
            case -2: twoBefore = day
            default: break
            }
        }
        return evaluate(profile: profile, today: today, previous: previous, twoBefore: twoBefore, date: date,
                        assessment: assessment ?? risk.assess(profile))
    }

    /// f = fRisk × fWindow on a POD (docs/clinical-rules.md §2): what every §3 threshold of that
    /// day is scaled by. The one place f is computed; the trend charts draw with it too.
    public func factor(pod: Int, riskClass: RiskClass) -> Double {
        let critical = rules.thresholds.criticalWindow.contains(pod)
        return (rules.riskModel.riskFactor[riskClass] ?? 1.0) * (critical ? rules.thresholds.windowFactor : 1.0)
    }

    func evaluate(profile: PatientProfile, today: DailyEntry?, previous: DailyEntry?, twoBefore: DailyEntry?,
                  date: LocalDate, assessment: RiskAssessment) -> Evaluation {
        let pod = profile.pod(at: date)
        let critical = rules.thresholds.criticalWindow.contains(pod)
        let f = factor(pod: pod, riskClass: assessment.riskClass)
        var result = Evaluation(date: date, level: nil, reasons: [], risk: assessment, pod: pod,
                                criticalWindow: critical, factor: f, rulesVersion: rules.version)
        guard let today else { return result }

        let context = SignalContext(profile: profile, today: today, previous: previous, twoBefore: twoBefore,
                                    factor: f, thresholds: rules.thresholds)
        // §3: a parameter with no data that day is not evaluated; a day where no rule has its
        // data is not evaluated at all (no level), rather than green.
        guard context.anyRuleHasData else { return result }
        var fired: [Reason] = []
        fired.reserveCapacity(6)
        context.weightSignals(into: &fired)
        context.fluidSignals(into: &fired)
        context.symptomSignals(into: &fired)
        context.reactionTimeSignals(into: &fired)
        context.sodiumSignals(into: &fired)
        context.possibleDI(into: &fired)
        context.singleItemTriggers(into: &fired)

        // §5.2: count the groups in which a code fired; a group counts once.
        var counted = Set<Int>()
        for reason in fired { if let g = groupOf[reason.code] { counted.insert(g) } }
        var count = counted.count
        if let support = context.urineSGSupport() {
            // SG support adds one only when at least one group counts; otherwise it is info.
            if count >= 1 {
                count += 1
                fired.append(Reason(code: .urineSGSupport, level: .yellow, value: support.value, threshold: support.threshold))
            } else {
                fired.append(Reason(code: .urineSGSupport, level: .info, value: support.value, threshold: support.threshold))
            }
        }
        // §5.3: enough groups make red, also on a day already red for another reason.
        if count >= rules.thresholds.multipleYellowGroups {
            fired.append(Reason(code: .multipleYellow, level: .red, value: Double(count),
                                threshold: Double(rules.thresholds.multipleYellowGroups)))
        }
        // §5.1 and §5.4.
        if fired.contains(where: { $0.level == .red }) {
            result.level = .red
        } else {
            result.level = count >= 1 ? .yellow : .green
        }
        fired.sort { $0.level != $1.level ? $0.level > $1.level : $0.code < $1.code }
        result.reasons = fired
        return result
    }
}
