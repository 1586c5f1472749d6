/// Everything the clinical rules know about a patient (docs/clinical-rules.md §1, docs/product.md case format).
/// Pseudonymous: a study ID, never a name.
public struct PatientProfile: Sendable, Equatable {
    public enum Sex: String, Sendable, CaseIterable { case female, male }

    public var studyId: String
    public var surgeryDate: LocalDate
    /// IANA time-zone identifier of the patient's home.
    public var timeZone: String
    public var age: Int
    public var sex: Sex
    public var bmi: Double
    public var baselineWeightKg: Double

    // Kat A
    /// A histology code known to the risk model, or nil when not known yet.
    public var histology: String?
    public var stalkDeviation: Bool
    /// Risk medication codes; a code listed twice counts once.
    public var riskMedications: [String]

    // Kat B (often entered after enrolment); nil = pending.
    public var katB: KatB?
    // Kat C
    public var katC: KatC

    public var fluidLimitMl: Double?
    public var diabetesInsipidusActive: Bool
    public var baselineReactionTimeMs: Double?
    public var simplifiedMode: Bool
    /// Uses only the web check-in (`/app/`): the reaction and tapping tasks are
    /// hidden as in simplified mode, so adherence and reminder intensity stay fair.
    public var webOnly: Bool = false
    public var desmopressinPrescribed: Bool
    public var loanDevice: Bool
    public var baselineIsPreOp: Bool

    // Consent (not used by the rules; kept with the profile for the audit trail and REDCap).
    /// The version of the consent form the patient signed, `[A-Za-z0-9._-]{1,32}`.
    public var consentVersion: String?
    /// The date of consent, never after today nor after the surgery date + 60 days (checked at
    /// enrolment and on updates, not in case files).
    public var consentDate: LocalDate?

    public init(studyId: String, surgeryDate: LocalDate, timeZone: String, age: Int, sex: Sex, bmi: Double,
                baselineWeightKg: Double, histology: String? = nil, stalkDeviation: Bool = false,
                riskMedications: [String] = [], katB: KatB? = nil, katC: KatC = KatC(),
                fluidLimitMl: Double? = nil, diabetesInsipidusActive: Bool = false,
                baselineReactionTimeMs: Double? = nil, simplifiedMode: Bool = false,
                desmopressinPrescribed: Bool = false, loanDevice: Bool = false, baselineIsPreOp: Bool = false,
                consentVersion: String? = nil, consentDate: LocalDate? = nil) {
        self.studyId = studyId
        self.surgeryDate = surgeryDate
        self.timeZone = timeZone
        self.age = age
        self.sex = sex
        self.bmi = bmi
        self.baselineWeightKg = baselineWeightKg
        self.histology = histology
        self.stalkDeviation = stalkDeviation
        self.riskMedications = riskMedications
        self.katB = katB
        self.katC = katC
        self.fluidLimitMl = fluidLimitMl
        self.diabetesInsipidusActive = diabetesInsipidusActive
        self.baselineReactionTimeMs = baselineReactionTimeMs
        self.simplifiedMode = simplifiedMode
        self.desmopressinPrescribed = desmopressinPrescribed
        self.loanDevice = loanDevice
        self.baselineIsPreOp = baselineIsPreOp
        self.consentVersion = consentVersion
        self.consentDate = consentDate
    }

    /// Kat B is pending while POD sodium, operation time and CSF leak are all unknown
    /// (docs/clinical-rules.md §1); it then scores 0 and the nurse is shown that it is missing.
    public var katBPending: Bool {
        guard let katB else { return true }
        return katB.podSodium == nil && katB.operationMinutes == nil && katB.csfLeak == nil
    }

    /// Post-operative day of a local date: local calendar days since surgery (surgery day = 0).
    public func pod(at date: LocalDate) -> Int { surgeryDate.days(to: date) }

    /// The date of a post-operative day.
    public func date(ofPOD pod: Int) -> LocalDate { surgeryDate.adding(days: pod) }

    /// A morning weight's change against the baseline, percent (docs/clinical-rules.md §3,
    /// `weight_gain_pct`).
    public func weightChangePercent(_ morningKg: Double) -> Double {
        (morningKg - baselineWeightKg) / baselineWeightKg * 100
    }
}

/// Kat B: intra- and early post-operative findings, entered by staff.
public struct KatB: Sendable, Equatable {
    /// Lowest sodium on POD 1–2, mmol/L.
    public var podSodium: Double?
    public var preopSodium: Double?
    public var operationMinutes: Int?
    public var csfLeak: Bool?

    public init(podSodium: Double? = nil, preopSodium: Double? = nil, operationMinutes: Int? = nil, csfLeak: Bool? = nil) {
        self.podSodium = podSodium
        self.preopSodium = preopSodium
        self.operationMinutes = operationMinutes
        self.csfLeak = csfLeak
    }
}

/// Kat C: the early post-operative course.
public struct KatC: Sendable, Equatable {
    /// A post-op nausea code known to the risk model (`none`, `antiemetic`, `vomiting`), nil = unknown.
    public var postopNausea: String?
    public var diabetesInsipidus: Bool
    public var desmopressin: Bool
    public var newCortisolDeficiency: Bool

    public init(postopNausea: String? = nil, diabetesInsipidus: Bool = false, desmopressin: Bool = false,
                newCortisolDeficiency: Bool = false) {
        self.postopNausea = postopNausea
        self.diabetesInsipidus = diabetesInsipidus
        self.desmopressin = desmopressin
        self.newCortisolDeficiency = newCortisolDeficiency
    }
}
