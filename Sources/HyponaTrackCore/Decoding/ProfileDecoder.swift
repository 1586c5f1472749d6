import HTJSON

/// Reads a `PatientProfile` from its JSON form (docs/product.md, case format), validating every
/// field's range and code against the rule set. Optional flags default to false, optional numbers
/// to null; unknown fields are refused.
public enum ProfileDecoder {
    /// `rules` nil accepts any well-formed code (for profiles already stored under earlier rules).
    public static func decode(_ json: JSONValue, path: String = "profile", rules: RuleSet?) throws(FieldError) -> PatientProfile {
        let r = try ObjectReader(json, path: path)
        let risk = rules?.riskModel
        var profile = PatientProfile(
            studyId: try r.required("studyId", Reads.studyId),
            surgeryDate: try r.required("surgeryDate", Reads.localDate),
            timeZone: try r.required("timeZone", Reads.timeZone),
            age: try r.required("age", .integer(ValueRanges.age)),
            sex: try r.required("sex", .oneOf(PatientProfile.Sex.allCases.map(\.rawValue))).asSex,
            bmi: try r.required("bmi", .number(ValueRanges.bmi)),
            baselineWeightKg: try r.required("baselineWeightKg", .number(ValueRanges.weightKg)),
            histology: try r.optional("histology", Reads.code(risk?.histologyPoints)),
            stalkDeviation: try r.optional("stalkDeviation", .bool) ?? false,
            riskMedications: try r.optionalArray("riskMedications", maxCount: 20) { v, p throws(FieldError) in
                try Reads.code(risk?.medicationPoints).convert(v, p)
            } ?? [],
            katB: try r.optional("katB", .any).map { v throws(FieldError) in try decodeKatB(v, path: r.fieldPath("katB")) },
            katC: try r.optional("katC", .any).map { v throws(FieldError) in try decodeKatC(v, path: r.fieldPath("katC"), rules: rules) } ?? KatC(),
            fluidLimitMl: try r.optional("fluidLimitMl", .number(ValueRanges.fluidLimitMl)),
            diabetesInsipidusActive: try r.optional("diabetesInsipidusActive", .bool) ?? false,
            baselineReactionTimeMs: try r.optional("baselineReactionTimeMs", .number(ValueRanges.reactionTimeMs)),
            simplifiedMode: try r.optional("simplifiedMode", .bool) ?? false,
            desmopressinPrescribed: try r.optional("desmopressinPrescribed", .bool) ?? false,
            loanDevice: try r.optional("loanDevice", .bool) ?? false,
            baselineIsPreOp: try r.optional("baselineIsPreOp", .bool) ?? false,
            consentVersion: try r.optional("consentVersion", Reads.consentVersion),
            consentDate: try r.optional("consentDate", Reads.localDate))
        profile.webOnly = try r.optional("webOnly", .bool) ?? false
        try r.finish()
        return profile
    }

    public static func decodeKatB(_ json: JSONValue, path: String) throws(FieldError) -> KatB {
        let r = try ObjectReader(json, path: path)
        let katB = KatB(podSodium: try r.optional("podSodium", .number(ValueRanges.sodium)),
                        preopSodium: try r.optional("preopSodium", .number(ValueRanges.sodium)),
                        operationMinutes: try r.optional("operationMinutes", .integer(ValueRanges.operationMinutes)),
                        csfLeak: try r.optional("csfLeak", .bool))
        try r.finish()
        return katB
    }

    public static func decodeKatC(_ json: JSONValue, path: String, rules: RuleSet?) throws(FieldError) -> KatC {
        let r = try ObjectReader(json, path: path)
        let katC = KatC(postopNausea: try r.optional("postopNausea", Reads.code(rules?.riskModel.postopNauseaPoints)),
                        diabetesInsipidus: try r.optional("diabetesInsipidus", .bool) ?? false,
                        desmopressin: try r.optional("desmopressin", .bool) ?? false,
                        newCortisolDeficiency: try r.optional("newCortisolDeficiency", .bool) ?? false)
        try r.finish()
        return katC
    }
}

extension String {
    fileprivate var asSex: PatientProfile.Sex { PatientProfile.Sex(rawValue: self)! }
}
