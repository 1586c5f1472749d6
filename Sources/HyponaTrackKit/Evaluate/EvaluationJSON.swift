import HTJSON
import HyponaTrackCore

/// JSON forms of evaluation results, shared by the offline evaluator and the API.
public enum EvaluationJSON {
    /// `{code, level, value, threshold}`; values rounded to 6 decimals for display only
    /// (decisions were taken on the unrounded values).
    public static func reason(_ r: Reason) -> JSONValue {
        ["code": .string(r.code.rawValue), "level": .string(r.level.rawValue),
         "value": .number(display(r.value)), "threshold": .double(r.threshold.map(display))]
    }

    public static func reasons(_ e: Evaluation) -> JSONValue { .array(e.reasons.map(reason)) }

    /// The offline evaluator's result object (docs/product.md, "`evaluate`"); `level` is null
    /// for a day that is not evaluated.
    public static func result(id: String, _ e: Evaluation) -> JSONValue {
        ["id": .string(id), "level": .string(e.level?.rawValue), "riskClass": .string(e.risk.riskClass.rawValue),
         "riskScore": .int(e.risk.riskScore), "katA": .int(e.risk.katA), "katB": .int(e.risk.katB),
         "katC": .int(e.risk.katC), "katBPending": .bool(e.risk.katBPending), "pod": .int(e.pod),
         "criticalWindow": .bool(e.criticalWindow), "factor": .number(display(e.factor)),
         "reasons": reasons(e), "rulesVersion": .string(e.rulesVersion)]
    }

    public static func display(_ v: Double) -> Double { (v * 1_000_000).rounded() / 1_000_000 }
}
