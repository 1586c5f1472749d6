/// Scores a profile with the risk model (docs/clinical-rules.md §1): `riskScore = katA + katB + katC`,
/// class low/medium/high by score, some histologies always high. A missing optional value
/// scores 0; a pending Kat B scores 0.
public struct RiskEngine: Sendable {
    public let rules: RiskModelRules

    public init(rules: RiskModelRules) { self.rules = rules }

    public func assess(_ profile: PatientProfile) -> RiskAssessment {
        let a = katA(profile), b = katB(profile.katB), c = katC(profile.katC)
        let score = a + b + c
        var riskClass: RiskClass = score >= rules.highFrom ? .high : score >= rules.mediumFrom ? .medium : .low
        var overridden = false
        if let h = profile.histology, rules.alwaysHighHistologies.contains(h), riskClass != .high {
            riskClass = .high
            overridden = true
        }
        return RiskAssessment(katA: a, katB: b, katC: c, katBPending: profile.katBPending,
                              riskClass: riskClass, classOverridden: overridden)
    }

    /// Kat A: histology, stalk deviation, risk medications (capped), age, sex, BMI.
    public func katA(_ p: PatientProfile) -> Int {
        var points = 0
        if let h = p.histology { points += rules.histologyPoints[h] ?? 0 }
        if p.stalkDeviation { points += rules.stalkDeviationPoints }
        // A medication listed twice counts once; the sum is capped.
        let medications = Set(p.riskMedications).reduce(0) { $0 + (rules.medicationPoints[$1] ?? 0) }
        points += min(medications, rules.medicationCap)
        if Double(p.age) >= rules.age.value { points += rules.age.points }
        points += rules.sexPoints[p.sex.rawValue] ?? 0
        if p.bmi < rules.bmi.value { points += rules.bmi.points }
        return points
    }

    /// Kat B: POD sodium band (at least the pre-op-drop minimum), CSF leak, long operation.
    public func katB(_ b: KatB?) -> Int {
        guard let b else { return 0 }
        var points = 0
        if let pod = b.podSodium {
            var sodiumPoints = rules.podSodiumBands.first { pod < $0.below }?.points ?? rules.podSodiumOtherwise
            if let preop = b.preopSodium, preop - pod >= rules.preopDrop.value {
                sodiumPoints = max(sodiumPoints, rules.preopDrop.points)
            }
            points += sodiumPoints
        }
        if b.csfLeak == true { points += rules.csfLeakPoints }
        if let minutes = b.operationMinutes, Double(minutes) > rules.operationMinutes.value {
            points += rules.operationMinutes.points
        }
        return points
    }

    /// Kat C: post-op nausea, DI or desmopressin (either), new cortisol deficiency.
    public func katC(_ c: KatC) -> Int {
        var points = 0
        if let n = c.postopNausea { points += rules.postopNauseaPoints[n] ?? 0 }
        if c.diabetesInsipidus || c.desmopressin { points += rules.diabetesInsipidusOrDesmopressinPoints }
        if c.newCortisolDeficiency { points += rules.newCortisolDeficiencyPoints }
        return points
    }
}
