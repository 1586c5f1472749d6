import HTJSON

/// Reads a `DailyEntry` from its JSON form (docs/product.md, case/day format) with every range checked.
public enum DayDecoder {
    public struct Options: Sendable {
        /// The date from the URL path; when set, the body must not carry `date`.
        public var date: LocalDate?
        /// Case files may carry staff lab values; the patient API may not.
        public var allowLabSodium: Bool

        public init(date: LocalDate? = nil, allowLabSodium: Bool = true) {
            self.date = date
            self.allowLabSodium = allowLabSodium
        }
    }

    /// Emergency symptom codes are checked against `rules` (`thresholds.json` `emergencySymptoms`).
    public static func decode(_ json: JSONValue, path: String, rules: RuleSet,
                              options: Options = Options()) throws(FieldError) -> DailyEntry {
        let r = try ObjectReader(json, path: path)
        let date: LocalDate
        if let fixed = options.date {
            try r.refuse("date", "the date is given by the URL")
            date = fixed
        } else {
            date = try r.required("date", Reads.localDate)
        }
        if !options.allowLabSodium { try r.refuse("labSodium", "lab sodium values are entered by staff") }
        var day = DailyEntry(date: date)
        day.weightMorningKg = try r.optional("weightMorningKg", .number(ValueRanges.weightKg))
        day.weightEveningKg = try r.optional("weightEveningKg", .number(ValueRanges.weightKg))
        day.fluidIntakeMl = try r.optional("fluidIntakeMl", .number(ValueRanges.fluidIntakeMl))
        day.urineSG = try r.optional("urineSG", .number(ValueRanges.urineSG))
        day.vomitingEpisodes = try r.optional("vomitingEpisodes", .integer(ValueRanges.vomitingEpisodes))
        day.emergencySymptoms = try emergencySymptoms(r, rules)
        day.symptoms = try items(r, "symptoms", date, symptom)
        day.reactionTests = try items(r, "reactionTests", date, reactionTest)
        day.tappingTests = try items(r, "tappingTests", date, tappingTest)
        day.desmopressinDoses = try items(r, "desmopressinDoses", date, desmopressinDose)
        if options.allowLabSodium {
            day.labSodium = try items(r, "labSodium", date, idRequired: false) { i, t throws(FieldError) in
                LabSodium(id: try i.optional("id", Reads.itemId), time: t, value: try i.required("value", .number(ValueRanges.sodium)))
            }
        }
        day.steps = try r.optional("steps", .integer(ValueRanges.steps))
        day.hrvSdnnMs = try r.optional("hrvSdnnMs", .number(ValueRanges.hrvMs))
        day.sleepMinutes = try r.optional("sleepMinutes", .integer(ValueRanges.sleepMinutes))
        day.restingHeartRate = try r.optional("restingHeartRate", .integer(ValueRanges.restingHeartRate))
        // Derived values are computed here, never accepted from outside.
        for derived in ["morningCheckComplete", "eveningCheckComplete", "pod", "level", "reasons"] {
            try r.refuse(derived, "is computed by the server")
        }
        try r.finish()
        return day
    }

    static func symptom(_ i: ObjectReader, time: Timestamp) throws(FieldError) -> SymptomEntry {
        let item = JSONRead.integer(ValueRanges.symptomItem)
        return SymptomEntry(
            id: try i.required("id", Reads.itemId), time: time,
            slot: SymptomEntry.Slot(rawValue: try i.required("slot", .oneOf(SymptomEntry.Slot.allCases.map(\.rawValue))))!,
            nausea: try i.required("nausea", item), headache: try i.required("headache", item),
            fatigue: try i.required("fatigue", item), confusion: try i.required("confusion", item),
            muscleCramps: try i.required("muscleCramps", item), vas: try i.required("vas", .integer(ValueRanges.vas)))
    }

    static func reactionTest(_ i: ObjectReader, time: Timestamp) throws(FieldError) -> ReactionTest {
        ReactionTest(id: try i.required("id", Reads.itemId), time: time,
                     medianMs: try i.required("medianMs", .number(ValueRanges.reactionTimeMs)),
                     meanMs: try i.required("meanMs", .number(ValueRanges.reactionTimeMs)),
                     errors: try i.required("errors", .integer(ValueRanges.reactionErrors)))
    }

    static func tappingTest(_ i: ObjectReader, time: Timestamp) throws(FieldError) -> TappingTest {
        TappingTest(id: try i.required("id", Reads.itemId), time: time, taps: try i.required("taps", .integer(ValueRanges.taps)),
                    durationSeconds: try i.required("durationSeconds", .number(ValueRanges.tappingSeconds)))
    }

    static func desmopressinDose(_ i: ObjectReader, time: Timestamp) throws(FieldError) -> DesmopressinDose {
        DesmopressinDose(id: try i.required("id", Reads.itemId), time: time,
                         doseMcg: try i.required("doseMcg", .number(ValueRanges.desmopressinMcg)))
    }

    /// `emergencySymptoms`: codes of the rule set; an unknown one is refused naming its index.
    static func emergencySymptoms(_ r: ObjectReader, _ rules: RuleSet) throws(FieldError) -> Set<String> {
        Set(try r.optionalArray("emergencySymptoms", maxCount: 10, JSONRead.oneOf(rules.thresholds.emergencySymptoms).convert) ?? [])
    }

    /// A list of items with a client `id` and a `time` on the day's local date ± 1 day; ids are
    /// unique within the list.
    static func items<T>(_ r: ObjectReader, _ key: String, _ date: LocalDate, idRequired: Bool = true,
                         _ build: (ObjectReader, Timestamp) throws(FieldError) -> T) throws(FieldError) -> [T] {
        var ids = Set<String>()
        return try r.optionalArray(key, maxCount: 200) { value, path throws(FieldError) -> T in
            let item = try ObjectReader(value, path: path)
            if idRequired || item.has("id"), case .string(let id)? = item.object["id"], !ids.insert(id).inserted {
                throw FieldError.invalid(item.fieldPath("id"), "\"\(id)\" appears twice in \(key)")
            }
            let time = try item.required("time", Reads.timestamp)
            let slack = ValueRanges.itemTimeSlackDays
            guard abs(date.days(to: time.localDate)) <= slack else {
                throw FieldError.invalid(item.fieldPath("time"), "must lie within \(slack) day of \(date)")
            }
            let built = try build(item, time)
            try item.finish()
            return built
        } ?? []
    }
}
