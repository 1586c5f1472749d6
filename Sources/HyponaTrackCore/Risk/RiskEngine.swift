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

    /// Every item of Kat A, B and C with the points it scores (0 included), in the order of
    /// docs/clinical-rules.md §1; the points of a category add up to its `katA`/`katB`/`katC`.
    public func factors(_ p: PatientProfile) -> [RiskFactor] {
        factorsA(p) + factorsB(p.katB) + factorsC(p.katC)
    }

    /// Kat A: histology, stalk deviation, risk medications (capped), age, sex, BMI.
    public func katA(_ p: PatientProfile) -> Int { factorsA(p).reduce(0) { $0 + $1.points } }

    /// Kat B: POD sodium band (at least the pre-op-drop minimum), CSF leak, long operation.
    public func katB(_ b: KatB?) -> Int { factorsB(b).reduce(0) { $0 + $1.points } }

    /// Kat C: post-op nausea, DI or desmopressin (either), new cortisol deficiency.
    public func katC(_ c: KatC) -> Int { factorsC(c).reduce(0) { $0 + $1.points } }

    func factorsA(_ p: PatientProfile) -> [RiskFactor] {
        // A medication listed twice counts once; the sum is capped.
        var medications: [String] = []
        for m in p.riskMedications where !medications.contains(m) { medications.append(m) }
        let uncapped = medications.reduce(0) { $0 + (rules.medicationPoints[$1] ?? 0) }
        return [
            RiskFactor(.a, .histology(p.histology), points: p.histology.flatMap { rules.histologyPoints[$0] } ?? 0),
            RiskFactor(.a, .stalkDeviation(p.stalkDeviation), points: p.stalkDeviation ? rules.stalkDeviationPoints : 0),
            RiskFactor(.a, .riskMedications(medications, uncapped: uncapped), points: min(uncapped, rules.medicationCap)),
            RiskFactor(.a, .age(p.age), points: Double(p.age) >= rules.age.value ? rules.age.points : 0),
            RiskFactor(.a, .sex(p.sex), points: rules.sexPoints[p.sex.rawValue] ?? 0),
            RiskFactor(.a, .bmi(p.bmi), points: p.bmi < rules.bmi.value ? rules.bmi.points : 0),
        ]
    }

    func factorsB(_ b: KatB?) -> [RiskFactor] {
        var sodiumPoints = 0
        if let pod = b?.podSodium {
            sodiumPoints = rules.podSodiumBands.first { pod < $0.below }?.points ?? rules.podSodiumOtherwise
            if let preop = b?.preopSodium, preop - pod >= rules.preopDrop.value {
                sodiumPoints = max(sodiumPoints, rules.preopDrop.points)
            }
        }
        let minutes = b?.operationMinutes
        return [
            RiskFactor(.b, .podSodium(b?.podSodium, preop: b?.preopSodium), points: sodiumPoints),
            RiskFactor(.b, .csfLeak(b?.csfLeak), points: b?.csfLeak == true ? rules.csfLeakPoints : 0),
            RiskFactor(.b, .operationMinutes(minutes),
                       points: minutes.map { Double($0) > rules.operationMinutes.value ? rules.operationMinutes.points : 0 } ?? 0),
        ]
    }

    func factorsC(_ c: KatC) -> [RiskFactor] {
        [
            RiskFactor(.c, .postopNausea(c.postopNausea), points: c.postopNausea.flatMap { rules.postopNauseaPoints[$0] } ?? 0),
            RiskFactor(.c, .diabetesInsipidusOrDesmopressin(diabetesInsipidus: c.diabetesInsipidus, desmopressin: c.desmopressin),
                       points: c.diabetesInsipidus || c.desmopressin ? rules.diabetesInsipidusOrDesmopressinPoints : 0),
            RiskFactor(.c, .newCortisolDeficiency(c.newCortisolDeficiency),
                       points: c.newCortisolDeficiency ? rules.newCortisolDeficiencyPoints : 0),
        ]
    }
}
