import HTJSON

/// A day submission's audit row written by hand (`JSONTextBuilder`): it is on every submission's
/// path, and through `Encodable` its small object cost ~40k instructions (an encoder, a box and
/// a dispatch per member, most of them left out). The text is the `Encodable` conformances'
/// byte for byte (`DayAuditTextTests`); those stay the definition.
extension AuditDetails.DaySubmitted {
    func write(_ b: JSONTextBuilder) throws {
        b.beginObject()
        b.member("date"); b.string(date)
        b.member("changed"); try changed.write(b)
        b.member("upserted"); upserted.write(b)
        b.member("replaced")
        b.beginArray()
        for item in replaced {
            b.element()
            b.beginObject()
            b.member("list"); b.string(item.list)
            b.member("id"); b.string(item.id)
            b.member("before"); b.text(item.before)
            b.member("after"); b.text(item.after)
            b.end()
        }
        b.end()
        if let reason { b.member("reason"); b.string(reason) }
        b.end()
    }
}

extension AuditDetails.DayChanges {
    func write(_ b: JSONTextBuilder) throws {
        b.beginObject()
        try Self.change("weightMorningKg", weightMorningKg, b)
        try Self.change("weightEveningKg", weightEveningKg, b)
        try Self.change("fluidIntakeMl", fluidIntakeMl, b)
        try Self.change("urineSG", urineSG, b)
        Self.change("vomitingEpisodes", vomitingEpisodes, b)
        Self.change("steps", steps, b)
        try Self.change("hrvSdnnMs", hrvSdnnMs, b)
        Self.change("sleepMinutes", sleepMinutes, b)
        Self.change("restingHeartRate", restingHeartRate, b)
        if let c = emergencySymptoms {
            b.member("emergencySymptoms")
            b.beginObject()
            b.member("before"); b.strings(c.before)
            b.member("after"); b.strings(c.after)
            b.end()
        }
        b.end()
    }

    private static func change(_ key: String, _ c: AuditDetails.Change<Double?>?, _ b: JSONTextBuilder) throws {
        guard let c else { return }
        b.member(key)
        b.beginObject()
        b.member("before"); try b.number(c.before)
        b.member("after"); try b.number(c.after)
        b.end()
    }

    private static func change(_ key: String, _ c: AuditDetails.Change<Int?>?, _ b: JSONTextBuilder) {
        guard let c else { return }
        b.member(key)
        b.beginObject()
        b.member("before"); b.integer(c.before)
        b.member("after"); b.integer(c.after)
        b.end()
    }
}

extension AuditDetails.Upserted {
    func write(_ b: JSONTextBuilder) {
        b.beginObject()
        if let symptoms { b.member("symptoms"); b.strings(symptoms) }
        if let reactionTests { b.member("reactionTests"); b.strings(reactionTests) }
        if let tappingTests { b.member("tappingTests"); b.strings(tappingTests) }
        if let desmopressinDoses { b.member("desmopressinDoses"); b.strings(desmopressinDoses) }
        b.end()
    }
}

extension AuditDetails.EvaluationsRecorded {
    func write(_ b: JSONTextBuilder) {
        b.beginObject()
        b.member("evaluations")
        b.beginArray()
        for e in evaluations {
            b.element()
            b.beginObject()
            b.member("evaluationId"); b.integer(e.evaluationId)
            b.member("date"); b.string(e.date)
            b.member("pod"); b.integer(e.pod)
            b.member("level"); b.string(e.level)
            b.member("reasons"); b.strings(e.reasons)
            b.member("rulesVersion"); b.string(e.rulesVersion)
            b.member("cause"); b.string(e.cause)
            b.end()
        }
        b.end()
        b.end()
    }
}
