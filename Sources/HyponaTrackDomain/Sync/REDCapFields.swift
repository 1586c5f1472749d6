import HyponaTrackCore

/// The study's REDCap instruments as the mapper writes them (`instruments/` ships the same fields
/// as the data dictionary; a test checks that both agree field by field). The choices of
/// `histology`, `risk_med`, `postop_nausea` and `emergency_symptoms` are the codes of the rule
/// set in force (one source: the rule files); a test checks that the dictionary lists the same.
struct REDCapFields: Sendable {
    enum Validation: Sendable, Equatable {
        case text, date, datetime, integer, number(decimals: Int), yesno, choice([String]), checkbox([String]), notes
        /// `datetime_seconds_ymd`: `YYYY-MM-DD HH:MM:SS`.
        case datetimeSeconds
    }

    static let baselineForm = "patient_baseline"
    static let dailyForm = "daily_monitoring"

    /// The checkbox fields whose choices are the rule set's codes.
    static let riskMedicationsField = "risk_med"
    static let emergencySymptomsField = "emergency_symptoms"

    /// `risk-model.json` `katA.riskMedications.points`, in file order.
    let medications: [String]
    /// `thresholds.json` `emergencySymptoms`, in file order.
    let emergencySymptoms: [String]
    /// `reminders.json` `missingData.noData.days`: the label of `alert_kind`'s `no_data_2d`
    /// choice names it (the data dictionary's is the project's; `sync check` compares).
    let noDataDays: Int
    /// `patient_baseline`, in dictionary order (record_id first).
    let baseline: [(String, Validation)]
    /// `daily_monitoring`, in dictionary order.
    let daily: [(String, Validation)]

    init(rules: RuleSet) {
        let risk = rules.riskModel
        medications = risk.medicationCodes
        emergencySymptoms = rules.thresholds.emergencySymptoms
        noDataDays = rules.reminders.noDataDays
        baseline = [
            ("record_id", .text), ("surgery_date", .date), ("time_zone", .text), ("age", .integer),
            ("sex", .choice(PatientProfile.Sex.allCases.map(\.rawValue))), ("bmi", .number(decimals: 1)),
            ("baseline_weight_kg", .number(decimals: 1)), ("histology", .choice(risk.histologyCodes)),
            ("stalk_deviation", .yesno), (Self.riskMedicationsField, .checkbox(medications)),
            ("pod_sodium", .number(decimals: 1)), ("preop_sodium", .number(decimals: 1)), ("operation_minutes", .integer),
            ("csf_leak", .yesno), ("kat_b_pending", .yesno), ("postop_nausea", .choice(risk.postopNauseaCodes)),
            ("diabetes_insipidus", .yesno), ("desmopressin_postop", .yesno), ("new_cortisol_deficiency", .yesno),
            ("fluid_limit_ml", .integer), ("di_active", .yesno), ("baseline_rt_ms", .integer), ("simplified_mode", .yesno),
            ("desmopressin_prescribed", .yesno), ("loan_device", .yesno), ("web_only", .yesno), ("baseline_is_preop", .yesno),
            ("kat_a_points", .integer), ("kat_b_points", .integer), ("kat_c_points", .integer), ("risk_score", .integer),
            ("risk_class", .choice(RiskClass.allCases.map(\.rawValue))), ("enrolled_at", .datetime),
            ("consent_version", .text), ("consent_date", .date), ("activated_at", .datetime),
            ("withdrawn", .yesno), ("withdrawal_date", .date), ("withdrawal_reason", .notes), ("baseline_rules_version", .text),
        ]
        daily = [
            ("dm_date", .date), ("dm_pod", .integer), ("weight_morning_kg", .number(decimals: 1)),
            ("weight_evening_kg", .number(decimals: 1)), ("fluid_intake_ml", .integer), ("urine_sg", .number(decimals: 3)),
            ("vomiting_episodes", .integer), (Self.emergencySymptomsField, .checkbox(emergencySymptoms)),
        ] + Self.symptomFields("m") + Self.symptomFields("e") + [
            ("rt_sessions", .integer), ("rt_time", .datetime), ("rt_median_ms", .integer), ("rt_mean_ms", .integer),
            ("rt_errors", .integer), ("rt_slowing_pct", .number(decimals: 1)), ("tap_time", .datetime), ("tap_taps", .integer),
            ("tap_duration_s", .number(decimals: 1)), ("desmo_doses", .integer), ("desmo_total_mcg", .number(decimals: 1)),
            ("lab_sodium_min", .number(decimals: 1)), ("lab_sodium_count", .integer), ("steps", .integer),
            ("hrv_sdnn_ms", .number(decimals: 1)), ("sleep_minutes", .integer), ("resting_hr", .integer),
            ("morning_check_complete", .yesno), ("evening_check_complete", .yesno),
            ("alert_level", .choice(["green", "yellow", "red"])), ("alert_reasons", .text), ("risk_factor", .number(decimals: 2)),
            ("daily_rules_version", .text), ("evaluated_at", .datetime),
        ]
    }

    static func symptomFields(_ slot: String) -> [(String, Validation)] {
        [("sym_\(slot)_time", .datetime), ("sym_\(slot)_nausea", .integer), ("sym_\(slot)_headache", .integer),
         ("sym_\(slot)_fatigue", .integer), ("sym_\(slot)_confusion", .integer), ("sym_\(slot)_cramps", .integer),
         ("sym_\(slot)_vas", .integer), ("sym_\(slot)_score", .integer)]
    }

    /// A checkbox choice's flat column, as REDCap imports and exports it: `field___code`.
    static func checkboxColumn(_ field: String, _ code: String) -> String { "\(field)___\(code)" }

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
        ("alert_min_to_resolve", .number(decimals: 1)), ("alert_ack_note", .notes), ("alert_resolution_note", .notes),
        ("alert_contact_attempts", .integer), ("alert_reached_at", .datetimeSeconds), ("alert_last_date", .date),
    ]

    // MARK: outcome_log (repeating: one instance per outcome, docs/product.md settled O)

    static let outcomeLogForm = "outcome_log"

    /// `outcome_log`, in dictionary order.
    static let outcomeLog: [(String, Validation)] = [
        ("outcome_id", .integer), ("outcome_kind", .choice(OutcomeKind.allCases.map(\.rawValue))), ("outcome_date", .date),
        ("outcome_pod", .integer), ("outcome_sodium", .number(decimals: 1)),
        ("outcome_source", .choice(OutcomeSource.allCases.map(\.rawValue))),
        ("outcome_status", .choice(OutcomeStatus.allCases.map(\.rawValue))), ("outcome_note", .notes),
    ]

    /// Every instrument the server fills, in dictionary order, with its fields (the baseline's
    /// and the daily form's as the rule set in force builds them).
    var forms: [(form: String, fields: [(String, Validation)])] {
        [(Self.baselineForm, baseline), (Self.dailyForm, daily), (Self.alertLogForm, Self.alertLog),
         (Self.outcomeLogForm, Self.outcomeLog)]
    }

    /// The names of the instruments the server fills, in dictionary order (no rule set needed).
    static let formNames = [baselineForm, dailyForm, alertLogForm, outcomeLogForm]

    /// The instruments that must be marked repeating in the project (the baseline must not be).
    static let repeatingForms = [dailyForm, alertLogForm, outcomeLogForm]

    /// The flat columns of a form that hold numbers (integers, decimals, yes/no and checkbox
    /// `0`/`1`, `<form>_complete`): the exports type their cells by this declaration (`CSVCell`).
    static func numericColumns(_ fields: [(String, Validation)], form: String) -> Set<String> {
        var out: Set<String> = ["\(form)_complete"]
        for (name, v) in fields {
            switch v {
            case .integer, .number, .yesno: out.insert(name)
            case .checkbox(let codes): out.formUnion(codes.map { checkboxColumn(name, $0) })
            case .text, .date, .datetime, .datetimeSeconds, .choice, .notes: break
            }
        }
        return out
    }

    /// The flat column names a form's rows carry (checkboxes expand to `field___code`), plus
    /// `<form>_complete`.
    static func columns(_ fields: [(String, Validation)], form: String) -> [String] {
        fields.flatMap { name, v -> [String] in
            if case .checkbox(let codes) = v { return codes.map { checkboxColumn(name, $0) } }
            return [name]
        } + ["\(form)_complete"]
    }
}
