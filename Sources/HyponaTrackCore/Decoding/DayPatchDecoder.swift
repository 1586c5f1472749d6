import HTJSON

/// Reads a `DayPatch` from a patient's `PUT /v1/me/days/{date}` body: the day format without
/// `date`, with the same ranges and codes as `DayDecoder`; `labSodium` and derived values are refused.
public enum DayPatchDecoder {
    public static func decode(_ json: JSONValue, date: LocalDate, rules: RuleSet) throws(FieldError) -> DayPatch {
        let r = try ObjectReader(json)
        try r.refuse("date", "the date is given by the URL")
        try r.refuse("labSodium", "lab sodium values are entered by staff")
        for derived in ["morningCheckComplete", "eveningCheckComplete", "pod", "level", "reasons", "rulesVersion"] {
            try r.refuse(derived, "is computed by the server")
        }
        var p = DayPatch()
        p.weightMorningKg = change(try r.presence("weightMorningKg", .number(ValueRanges.weightKg)))
        p.weightEveningKg = change(try r.presence("weightEveningKg", .number(ValueRanges.weightKg)))
        p.fluidIntakeMl = change(try r.presence("fluidIntakeMl", .number(ValueRanges.fluidIntakeMl)))
        p.urineSG = change(try r.presence("urineSG", .number(ValueRanges.urineSG)))
        p.vomitingEpisodes = change(try r.presence("vomitingEpisodes", .integer(ValueRanges.vomitingEpisodes)))
        p.steps = change(try r.presence("steps", .integer(ValueRanges.steps)))
        p.hrvSdnnMs = change(try r.presence("hrvSdnnMs", .number(ValueRanges.hrvMs)))
        p.sleepMinutes = change(try r.presence("sleepMinutes", .integer(ValueRanges.sleepMinutes)))
        p.restingHeartRate = change(try r.presence("restingHeartRate", .integer(ValueRanges.restingHeartRate)))
        p.emergencySymptoms = try DayDecoder.emergencySymptoms(r, rules)
        p.symptoms = try DayDecoder.items(r, "symptoms", date, DayDecoder.symptom)
        p.reactionTests = try DayDecoder.items(r, "reactionTests", date, DayDecoder.reactionTest)
        p.tappingTests = try DayDecoder.items(r, "tappingTests", date, DayDecoder.tappingTest)
        p.desmopressinDoses = try DayDecoder.items(r, "desmopressinDoses", date, DayDecoder.desmopressinDose)
        try r.finish()
        return p
    }

    static func change<T>(_ p: Presence<T>) -> DayPatch.Change<T> {
        switch p {
        case .absent: return .keep
        case .null: return .clear
        case .value(let v): return .set(v)
        }
    }
}
