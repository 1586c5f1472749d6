/// The study's REDCap instruments as the mapper writes them (`instruments/` ships the same fields
/// as the data dictionary; a test checks that both agree field by field).
enum REDCapFields {
    enum Validation: Sendable, Equatable {
        case text, date, datetime, integer, number(decimals: Int), yesno, choice([String]), checkbox([String]), notes
        /// `datetime_seconds_ymd`: `YYYY-MM-DD HH:MM:SS`.
        case datetimeSeconds
    }

    static let baselineForm = "patient_baseline"
    static let dailyForm = "daily_monitoring"

    static let histologies = ["craniopharyngioma", "cushing", "rathke_cleft_cyst", "macroadenoma", "microadenoma", "other"]
    static let medications = ["thiazide", "carbamazepine", "oxcarbazepine", "antidepressant_recent", "antidepressant", "opioid",
                              "antipsychotic", "levetiracetam", "valproate", "spironolactone"]
    static let emergency = ["seizure", "collapse", "drowsiness"]

    /// `patient_baseline`, in dictionary order (record_id first).
    static let baseline: [(String, Validation)] = [
        ("record_id", .text), ("surgery_date", .date), ("time_zone", .text), ("age", .integer),
        ("sex", .choice(["female", "male"])), ("bmi", .number(decimals: 1)), ("baseline_weight_kg", .number(decimals: 1)),
        ("histology", .choice(histologies)), ("stalk_deviation", .yesno), ("risk_medications", .checkbox(medications)),
        ("pod_sodium", .number(decimals: 1)), ("preop_sodium", .number(decimals: 1)), ("operation_minutes", .integer),
        ("csf_leak", .yesno), ("kat_b_pending", .yesno), ("postop_nausea", .choice(["none", "antiemetic", "vomiting"])),
        ("diabetes_insipidus", .yesno), ("desmopressin_postop", .yesno), ("new_cortisol_deficiency", .yesno),
        ("fluid_limit_ml", .integer), ("di_active", .yesno), ("baseline_rt_ms", .integer), ("simplified_mode", .yesno),
        ("desmopressin_prescribed", .yesno), ("loan_device", .yesno), ("baseline_is_preop", .yesno),
        ("kat_a_points", .integer), ("kat_b_points", .integer), ("kat_c_points", .integer), ("risk_score", .integer),
        ("risk_class", .choice(["low", "medium", "high"])), ("enrolled_at", .datetime), ("activated_at", .datetime),
        ("withdrawn", .yesno), ("withdrawal_date", .date), ("withdrawal_reason", .notes), ("baseline_rules_version", .text),
    ]

    static func symptomFields(_ slot: String) -> [(String, Validation)] {
        [("sym_\(slot)_time", .datetime), ("sym_\(slot)_nausea", .integer), ("sym_\(slot)_headache", .integer),
         ("sym_\(slot)_fatigue", .integer), ("sym_\(slot)_confusion", .integer), ("sym_\(slot)_cramps", .integer),
         ("sym_\(slot)_vas", .integer), ("sym_\(slot)_score", .integer)]
    }

    /// `daily_monitoring`, in dictionary order.
    static let daily: [(String, Validation)] = [
        ("dm_date", .date), ("dm_pod", .integer), ("weight_morning_kg", .number(decimals: 1)),
        ("weight_evening_kg", .number(decimals: 1)), ("fluid_intake_ml", .integer), ("urine_sg", .number(decimals: 3)),
        ("vomiting_episodes", .integer), ("emergency_symptoms", .checkbox(emergency)),
    ] + symptomFields("m") + symptomFields("e") + [
        ("rt_sessions", .integer), ("rt_time", .datetime), ("rt_median_ms", .integer), ("rt_mean_ms", .integer),
        ("rt_errors", .integer), ("rt_slowing_pct", .number(decimals: 1)), ("tap_time", .datetime), ("tap_taps", .integer),
        ("tap_duration_s", .number(decimals: 1)), ("desmo_doses", .integer), ("desmo_total_mcg", .number(decimals: 1)),
        ("lab_sodium_min", .number(decimals: 1)), ("lab_sodium_count", .integer), ("steps", .integer),
        ("hrv_sdnn_ms", .number(decimals: 1)), ("sleep_minutes", .integer), ("resting_hr", .integer),
        ("morning_check_complete", .yesno), ("evening_check_complete", .yesno),
        ("alert_level", .choice(["green", "yellow", "red"])), ("alert_reasons", .text), ("risk_factor", .number(decimals: 2)),
        ("daily_rules_version", .text), ("evaluated_at", .datetime),
    ]

    // MARK: alert_log (repeating: one instance per alert, docs/product.md "`alert_log`")

    static let alertLogForm = "alert_log"
    static let alertKinds = AlertKind.allCases.map(\.rawValue)
    static let staffRoles = Role.allCases.map(\.rawValue)

    /// `alert_log`, in dictionary order. The contract's `alert_level` and `alert_reasons` are
    /// already `daily_monitoring` fields and REDCap field names are unique within a project, so
    /// this instrument names them `alert_log_level` and `alert_log_reasons`.
    static let alertLog: [(String, Validation)] = [
        ("alert_id", .integer), ("alert_kind", .choice(alertKinds)), ("alert_log_level", .choice(["yellow", "red"])),
        ("alert_date", .date), ("alert_pod", .integer), ("alert_log_reasons", .text), ("alert_opened_at", .datetimeSeconds),
        ("alert_ack_at", .datetimeSeconds), ("alert_ack_role", .choice(staffRoles)), ("alert_resolved_at", .datetimeSeconds),
        ("alert_resolution_na", .number(decimals: 1)), ("alert_min_to_ack", .number(decimals: 1)),
        ("alert_min_to_resolve", .number(decimals: 1)),
    ]

    /// Every instrument the server fills, in dictionary order, with its fields.
    static let forms: [(form: String, fields: [(String, Validation)])] = [
        (baselineForm, baseline), (dailyForm, daily), (alertLogForm, alertLog),
    ]

    /// The instruments that must be marked repeating in the project (the baseline must not be).
    static let repeatingForms = [dailyForm, alertLogForm]

    /// The flat column names a form's rows carry (checkboxes expand to `field___code`), plus
    /// `<form>_complete`.
    static func columns(_ fields: [(String, Validation)], form: String) -> [String] {
        fields.flatMap { name, v -> [String] in
            if case .checkbox(let codes) = v { return codes.map { "\(name)___\($0)" } }
            return [name]
        } + ["\(form)_complete"]
    }
}
