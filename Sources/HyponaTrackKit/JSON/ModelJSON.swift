import HTJSON
import HyponaTrackCore

/// JSON forms of the model in the case/day format of docs/product.md (the inverse of the core's
/// decoders), shared by the store, the API and the CLI.
public enum ModelJSON {
    public static func profile(_ p: PatientProfile) -> JSONValue {
        ["studyId": .string(p.studyId), "surgeryDate": .string(p.surgeryDate.description), "timeZone": .string(p.timeZone),
         "age": .int(p.age), "sex": .string(p.sex.rawValue), "bmi": .number(p.bmi), "baselineWeightKg": .number(p.baselineWeightKg),
         "histology": .string(p.histology), "stalkDeviation": .bool(p.stalkDeviation),
         "riskMedications": .array(p.riskMedications.map { JSONValue.string($0) }),
         "katB": p.katB.map(katB) ?? .null, "katC": katC(p.katC),
         "fluidLimitMl": .double(p.fluidLimitMl), "diabetesInsipidusActive": .bool(p.diabetesInsipidusActive),
         "baselineReactionTimeMs": .double(p.baselineReactionTimeMs), "simplifiedMode": .bool(p.simplifiedMode), "webOnly": .bool(p.webOnly),
         "desmopressinPrescribed": .bool(p.desmopressinPrescribed), "loanDevice": .bool(p.loanDevice),
         "baselineIsPreOp": .bool(p.baselineIsPreOp), "consentVersion": .string(p.consentVersion),
         "consentDate": .string(p.consentDate?.description)]
    }

    public static func katB(_ b: KatB) -> JSONValue {
        ["podSodium": .double(b.podSodium), "preopSodium": .double(b.preopSodium),
         "operationMinutes": .int(b.operationMinutes), "csfLeak": .bool(b.csfLeak)]
    }

    public static func katC(_ c: KatC) -> JSONValue {
        ["postopNausea": .string(c.postopNausea), "diabetesInsipidus": .bool(c.diabetesInsipidus),
         "desmopressin": .bool(c.desmopressin), "newCortisolDeficiency": .bool(c.newCortisolDeficiency)]
    }

    /// A day; `includeDate` false for the patient API's PUT shape.
    public static func day(_ d: DailyEntry, includeDate: Bool = true, includeLabs: Bool = true) -> JSONValue {
        var o = JSONObject()
        if includeDate { o["date"] = .string(d.date.description) }
        o["weightMorningKg"] = .double(d.weightMorningKg)
        o["weightEveningKg"] = .double(d.weightEveningKg)
        o["fluidIntakeMl"] = .double(d.fluidIntakeMl)
        o["urineSG"] = .double(d.urineSG)
        o["vomitingEpisodes"] = .int(d.vomitingEpisodes)
        o["emergencySymptoms"] = .array(d.emergencySymptoms.sorted().map { .string($0) })
        o["symptoms"] = .array(d.symptoms.map(symptom))
        o["reactionTests"] = .array(d.reactionTests.map(reactionTest))
        o["tappingTests"] = .array(d.tappingTests.map(tappingTest))
        o["desmopressinDoses"] = .array(d.desmopressinDoses.map(desmopressinDose))
        if includeLabs { o["labSodium"] = .array(d.labSodium.map(labSodium)) }
        o["steps"] = .int(d.steps)
        o["hrvSdnnMs"] = .double(d.hrvSdnnMs)
        o["sleepMinutes"] = .int(d.sleepMinutes)
        o["restingHeartRate"] = .int(d.restingHeartRate)
        return .object(o)
    }

    public static func symptom(_ s: SymptomEntry) -> JSONValue {
        ["id": .string(s.id), "time": .string(s.time.description), "slot": .string(s.slot.rawValue), "nausea": .int(s.nausea),
         "headache": .int(s.headache), "fatigue": .int(s.fatigue), "confusion": .int(s.confusion),
         "muscleCramps": .int(s.muscleCramps), "vas": .int(s.vas)]
    }

    public static func reactionTest(_ r: ReactionTest) -> JSONValue {
        ["id": .string(r.id), "time": .string(r.time.description), "medianMs": .number(r.medianMs), "meanMs": .number(r.meanMs),
         "errors": .int(r.errors)]
    }

    public static func tappingTest(_ t: TappingTest) -> JSONValue {
        ["id": .string(t.id), "time": .string(t.time.description), "taps": .int(t.taps), "durationSeconds": .number(t.durationSeconds)]
    }

    public static func desmopressinDose(_ d: DesmopressinDose) -> JSONValue {
        ["id": .string(d.id), "time": .string(d.time.description), "doseMcg": .number(d.doseMcg)]
    }

    public static func labSodium(_ l: LabSodium) -> JSONValue {
        ["id": .string(l.id), "time": .string(l.time.description), "value": .number(l.value)]
    }
}
