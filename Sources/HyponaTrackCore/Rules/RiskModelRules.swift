import HTJSON

/// Points and classes of the risk model (docs/clinical-rules.md §1), from `config/risk-model.json`.
public struct RiskModelRules: Sendable, Equatable {
    public struct Threshold: Sendable, Equatable {
        public var value: Double
        public var points: Int
    }
    public struct Band: Sendable, Equatable {
        /// Applies when the value is below this.
        public var below: Double
        public var points: Int
    }

    // Kat A
    public var histologyPoints: [String: Int]
    public var stalkDeviationPoints: Int
    public var medicationPoints: [String: Int]
    public var medicationCap: Int
    /// `age ≥ value`
    public var age: Threshold
    public var sexPoints: [String: Int]
    /// `bmi < value`
    public var bmi: Threshold
    // Kat B
    /// Checked in order; the first band the POD sodium lies below gives the points.
    public var podSodiumBands: [Band]
    public var podSodiumOtherwise: Int
    /// `preopSodium − podSodium ≥ value` gives at least `points`.
    public var preopDrop: Threshold
    public var csfLeakPoints: Int
    /// `operationMinutes > value`
    public var operationMinutes: Threshold
    // Kat C
    public var postopNauseaPoints: [String: Int]
    public var diabetesInsipidusOrDesmopressinPoints: Int
    public var newCortisolDeficiencyPoints: Int
    // Classes
    public var mediumFrom: Int
    public var highFrom: Int
    public var alwaysHighHistologies: [String]
    /// fRisk per class (docs/clinical-rules.md §2): only high changes thresholds by default.
    public var riskFactor: [RiskClass: Double]

    /// The codes of the three code tables in file order: the choices staff may enter and the
    /// REDCap choices of `histology`, `risk_med` and `postop_nausea`.
    public var histologyCodes: [String]
    public var medicationCodes: [String]
    public var postopNauseaCodes: [String]

    static func parse(_ json: JSONValue) throws(FieldError) -> RiskModelRules {
        let root = try ObjectReader(json)
        _ = root.raw("description")
        let katA = try ObjectReader(try root.required("katA", .any), path: "katA")
        let (histologyCodes, histology) = try pointTable(katA, "histology")
        let stalk = try katA.required("stalkDeviation", points)
        let meds = try ObjectReader(try katA.required("riskMedications", .any), path: "katA.riskMedications")
        let (medicationCodes, medPoints) = try pointTable(meds, "points")
        let cap = try meds.required("cap", points)
        try meds.finish()
        let age = try threshold(katA, "age", "atLeast")
        let sex = try pointTable(katA, "sex").points
        for s in PatientProfile.Sex.allCases where sex[s.rawValue] == nil {
            throw FieldError.invalid(katA.fieldPath("sex"), "needs points for \"\(s.rawValue)\"")
        }
        let bmi = try threshold(katA, "bmi", "below")
        try katA.finish()

        let katB = try ObjectReader(try root.required("katB", .any), path: "katB")
        let pod = try ObjectReader(try katB.required("podSodium", .any), path: "katB.podSodium")
        let bands: [Band] = try pod.optionalArray("bands") { value, path throws(FieldError) -> Band in
            let r = try ObjectReader(value, path: path)
            let band = Band(below: try r.required("below", .number(0...1000)), points: try r.required("points", points))
            try r.finish()
            return band
        } ?? []
        for (a, b) in zip(bands, bands.dropFirst()) where b.below <= a.below {
            throw FieldError.invalid(pod.fieldPath("bands"), "bands must be in increasing order of \"below\"")
        }
        let otherwise = try pod.required("otherwise", points)
        try pod.finish()
        let drop = try threshold(katB, "preopDrop", "atLeast", pointsKey: "minimumPoints")
        let csf = try katB.required("csfLeak", points)
        let opMinutes = try threshold(katB, "operationMinutes", "above")
        try katB.finish()

        let katC = try ObjectReader(try root.required("katC", .any), path: "katC")
        let (nauseaCodes, nausea) = try pointTable(katC, "postopNausea")
        let di = try katC.required("diabetesInsipidusOrDesmopressin", points)
        let cortisol = try katC.required("newCortisolDeficiency", points)
        try katC.finish()

        let classes = try ObjectReader(try root.required("classes", .any), path: "classes")
        let mediumFrom = try classes.required("mediumFrom", .integer(0...1000))
        let highFrom = try classes.required("highFrom", .integer(0...1000))
        guard mediumFrom < highFrom else { throw FieldError.invalid("classes.highFrom", "must be greater than mediumFrom") }
        try classes.finish()
        let alwaysHigh = try root.optionalArray("alwaysHighHistologies") { v, p throws(FieldError) in
            try JSONRead.oneOf(Array(histology.keys).sorted()).convert(v, p)
        } ?? []
        let factors = try ObjectReader(try root.required("riskFactor", .any), path: "riskFactor")
        var riskFactor: [RiskClass: Double] = [:]
        for c in RiskClass.allCases { riskFactor[c] = try factors.required(c.rawValue, .number(0.1...1.0)) }
        try factors.finish()
        try root.finish()
        return RiskModelRules(histologyPoints: histology, stalkDeviationPoints: stalk, medicationPoints: medPoints,
                              medicationCap: cap, age: age, sexPoints: sex, bmi: bmi, podSodiumBands: bands,
                              podSodiumOtherwise: otherwise, preopDrop: drop, csfLeakPoints: csf,
                              operationMinutes: opMinutes, postopNauseaPoints: nausea,
                              diabetesInsipidusOrDesmopressinPoints: di, newCortisolDeficiencyPoints: cortisol,
                              mediumFrom: mediumFrom, highFrom: highFrom, alwaysHighHistologies: alwaysHigh,
                              riskFactor: riskFactor, histologyCodes: histologyCodes, medicationCodes: medicationCodes,
                              postopNauseaCodes: nauseaCodes)
    }

    private static var points: JSONRead<Int> { JSONRead.integer(0...100) }

    /// A code table: its codes in file order and the points per code.
    private static func pointTable(_ r: ObjectReader, _ key: String) throws(FieldError) -> (codes: [String], points: [String: Int]) {
        let table = try ObjectReader(try r.required(key, .any), path: r.fieldPath(key))
        var out: [String: Int] = [:]
        for code in table.object.keys {
            guard code.utf8.allSatisfy({ ValueRanges.isIdentifierByte($0) }), !code.isEmpty else {
                throw FieldError.invalid(table.fieldPath(code), "codes use letters, digits, _ and -")
            }
            out[code] = try table.required(code, points)
        }
        guard !out.isEmpty else { throw FieldError.invalid(r.fieldPath(key), "must list at least one code") }
        return (table.object.keys, out)
    }

    private static func threshold(_ r: ObjectReader, _ key: String, _ valueKey: String,
                                  pointsKey: String = "points") throws(FieldError) -> Threshold {
        let t = try ObjectReader(try r.required(key, .any), path: r.fieldPath(key))
        let result = Threshold(value: try t.required(valueKey, .number(0...100_000)), points: try t.required(pointsKey, points))
        try t.finish()
        return result
    }
}
