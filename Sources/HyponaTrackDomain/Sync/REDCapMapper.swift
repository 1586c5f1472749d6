import Foundation
import HyponaTrackCore

/// Turns a patient's profile or one of their days into a REDCap flat row. Every row carries
/// every field of its instrument (blank where empty) and is imported with
/// `overwriteBehavior=overwrite`, so REDCap mirrors the server, cleared values included.
/// Values are formatted to their field's validation; datetimes are local study time. The rule
/// set of the caller's snapshot gives the checkbox choices and the rules version.
struct REDCapMapper: Sendable {
    let studyZone: ZoneRules
    /// Longitudinal projects: event names for the two instruments (nil: classic project).
    let baselineEvent: String?
    let dailyEvent: String?

    typealias Row = [(String, String)]

    func baseline(_ p: PatientRecord, risk: RiskAssessment, rules: RuleSet) -> Row {
        let fields = REDCapFields(rules: rules)
        let profile = p.profile
        var v: [String: String] = [
            "record_id": p.studyId, "surgery_date": profile.surgeryDate.description, "time_zone": profile.timeZone,
            "age": String(profile.age), "sex": profile.sex.rawValue, "bmi": decimal(profile.bmi, 1),
            "baseline_weight_kg": decimal(profile.baselineWeightKg, 1), "histology": profile.histology ?? "",
            "stalk_deviation": yesno(profile.stalkDeviation),
            "pod_sodium": decimal(profile.katB?.podSodium, 1), "preop_sodium": decimal(profile.katB?.preopSodium, 1),
            "operation_minutes": integer(profile.katB?.operationMinutes.map(Double.init)),
            "csf_leak": yesno(profile.katB?.csfLeak), "kat_b_pending": yesno(risk.katBPending),
            "postop_nausea": profile.katC.postopNausea ?? "", "diabetes_insipidus": yesno(profile.katC.diabetesInsipidus),
            "desmopressin_postop": yesno(profile.katC.desmopressin),
            "new_cortisol_deficiency": yesno(profile.katC.newCortisolDeficiency),
            "fluid_limit_ml": integer(profile.fluidLimitMl), "di_active": yesno(profile.diabetesInsipidusActive),
            "baseline_rt_ms": integer(profile.baselineReactionTimeMs), "simplified_mode": yesno(profile.simplifiedMode),
            "desmopressin_prescribed": yesno(profile.desmopressinPrescribed), "loan_device": yesno(profile.loanDevice),
            "web_only": yesno(profile.webOnly),
            "baseline_is_preop": yesno(profile.baselineIsPreOp), "kat_a_points": String(risk.katA),
            "kat_b_points": String(risk.katB), "kat_c_points": String(risk.katC), "risk_score": String(risk.riskScore),
            "risk_class": risk.riskClass.rawValue, "enrolled_at": datetime(milliseconds: p.enrolledAt),
            "consent_version": profile.consentVersion ?? "", "consent_date": profile.consentDate?.description ?? "",
            "activated_at": p.activatedAt.map { datetime(milliseconds: $0) } ?? "", "withdrawn": yesno(p.isWithdrawn),
            "withdrawal_date": p.withdrawalDate?.description ?? "", "withdrawal_reason": p.withdrawalReason ?? "",
            "baseline_rules_version": rules.version, "patient_baseline_complete": "2",
        ]
        for code in fields.medications {
            v[REDCapFields.checkboxColumn(REDCapFields.riskMedicationsField, code)] = profile.riskMedications.contains(code) ? "1" : "0"
        }
        var row: Row = [("record_id", p.studyId)]
        if let baselineEvent { row.append(("redcap_event_name", baselineEvent)) }
        row += [("redcap_repeat_instrument", ""), ("redcap_repeat_instance", "")]
        for column in REDCapFields.columns(fields.baseline, form: REDCapFields.baselineForm) where column != "record_id" {
            row.append((column, v[column] ?? ""))
        }
        return row
    }

    /// The row with `redcap_data_access_group` after the repeat columns, when the patient's site
    /// has a DAG (docs/product.md, third round, S): REDCap assigns the record to the group its
    /// imported rows name, and re-assigns it when a later row names another. Without a DAG the
    /// row is as it was (a blank would not take a record out of its group: REDCap cannot
    /// un-assign one, so sites have a DAG each or none has).
    static func assigned(_ row: Row, to dag: String?) -> Row {
        guard let dag else { return row }
        var row = row
        let at = (row.firstIndex { $0.0 == "redcap_repeat_instance" } ?? 0) + 1
        row.insert((dataAccessGroupField, dag), at: at)
        return row
    }

    static let dataAccessGroupField = "redcap_data_access_group"

    /// The daily row of a day with POD ≥ 1 (the instance number); nil for POD 0 or earlier.
    func daily(_ p: PatientRecord, day: DailyEntry, alert: DailyAlert?, rules: RuleSet) -> Row? {
        let pod = p.profile.pod(at: day.date)
        guard pod >= 1 else { return nil }
        let v = dailyValues(p, day: day, alert: alert, rules: rules)
        var row: Row = [("record_id", p.studyId)]
        if let dailyEvent { row.append(("redcap_event_name", dailyEvent)) }
        row += [("redcap_repeat_instrument", REDCapFields.dailyForm), ("redcap_repeat_instance", String(pod))]
        for column in REDCapFields.columns(REDCapFields(rules: rules).daily, form: REDCapFields.dailyForm) {
            row.append((column, v[column] ?? ""))
        }
        return row
    }

    /// The `daily_monitoring` values of a day by column (blank columns absent), whatever its POD:
    /// the REDCap row above and the CSV export (`DayExport`) both read them, so they never disagree.
    func dailyValues(_ p: PatientRecord, day: DailyEntry, alert: DailyAlert?, rules: RuleSet) -> [String: String] {
        let pod = p.profile.pod(at: day.date)
        let fields = REDCapFields(rules: rules)
        let weights = rules.thresholds.symptomWeights
        var v: [String: String] = [
            "dm_date": day.date.description, "dm_pod": String(pod),
            "weight_morning_kg": decimal(day.weightMorningKg, 1), "weight_evening_kg": decimal(day.weightEveningKg, 1),
            "fluid_intake_ml": integer(day.fluidIntakeMl), "urine_sg": decimal(day.urineSG, 3),
            "vomiting_episodes": integer(day.vomitingEpisodes.map(Double.init)),
            "steps": integer(day.steps.map(Double.init)), "hrv_sdnn_ms": decimal(day.hrvSdnnMs, 1),
            "sleep_minutes": integer(day.sleepMinutes.map(Double.init)), "resting_hr": integer(day.restingHeartRate.map(Double.init)),
            "morning_check_complete": yesno(day.morningCheckComplete), "evening_check_complete": yesno(day.eveningCheckComplete),
            "daily_monitoring_complete": "1",
        ]
        for code in fields.emergencySymptoms {
            v[REDCapFields.checkboxColumn(REDCapFields.emergencySymptomsField, code)] = day.emergencySymptoms.contains(code) ? "1" : "0"
        }
        // The latest symptom entry of each slot.
        for (slot, key) in [(SymptomEntry.Slot.morning, "m"), (.evening, "e")] {
            guard let s = day.symptoms.filter({ $0.slot == slot }).max(by: { Self.earlier($0.time, $0.id, $1.time, $1.id) })
            else { continue }
            v["sym_\(key)_time"] = datetime(s.time)
            v["sym_\(key)_nausea"] = String(s.nausea)
            v["sym_\(key)_headache"] = String(s.headache)
            v["sym_\(key)_fatigue"] = String(s.fatigue)
            v["sym_\(key)_confusion"] = String(s.confusion)
            v["sym_\(key)_cramps"] = String(s.muscleCramps)
            v["sym_\(key)_vas"] = String(s.vas)
            v["sym_\(key)_score"] = String(s.totalScore(weights))
        }
        // The reaction-test session with the largest slowing, plus the session count.
        if !day.reactionTests.isEmpty {
            v["rt_sessions"] = String(day.reactionTests.count)
            let baseline = p.profile.baselineReactionTimeMs
            // Ties broken by time, then id: the row must not depend on the order items arrived in
            // (the same day reloaded from the database has to give the same row).
            let slowest = day.reactionTests.max {
                $0.medianMs != $1.medianMs ? $0.medianMs < $1.medianMs : Self.earlier($0.time, $0.id, $1.time, $1.id)
            }!
            v["rt_time"] = datetime(slowest.time)
            v["rt_median_ms"] = integer(slowest.medianMs)
            v["rt_mean_ms"] = integer(slowest.meanMs)
            v["rt_errors"] = String(slowest.errors)
            v["rt_slowing_pct"] = baseline.map { decimal(slowest.slowingPercent(baselineMs: $0), 1) } ?? ""
        }
        if let tap = day.tappingTests.max(by: { Self.earlier($0.time, $0.id, $1.time, $1.id) }) {
            v["tap_time"] = datetime(tap.time)
            v["tap_taps"] = String(tap.taps)
            v["tap_duration_s"] = decimal(tap.durationSeconds, 1)
        }
        if !day.desmopressinDoses.isEmpty {
            v["desmo_doses"] = String(day.desmopressinDoses.count)
            v["desmo_total_mcg"] = decimal(day.desmopressinDoses.reduce(0) { $0 + $1.doseMcg }, 1)
        }
        if let lowest = day.lowestLabSodium {
            v["lab_sodium_min"] = decimal(lowest, 1)
            v["lab_sodium_count"] = String(day.labSodium.count)
        }
        if let e = alert {
            // A day that is not evaluated leaves the level blank (it has no reasons either); the
            // rules version and time still say which evaluation that was.
            if let level = e.level { v["alert_level"] = level.rawValue }
            v["alert_reasons"] = e.reasonCodes.joined(separator: ",")
            v["risk_factor"] = decimal(e.factor, 2)
            v["daily_rules_version"] = e.rulesVersion
            v["evaluated_at"] = datetime(milliseconds: e.evaluatedAt)
        }
        return v
    }

    /// A total order on items: by instant, then by client id.
    static func earlier(_ t1: Timestamp, _ id1: String, _ t2: Timestamp, _ id2: String) -> Bool {
        t1.epochSeconds != t2.epochSeconds ? t1.epochSeconds < t2.epochSeconds : id1 < id2
    }

    // MARK: formatting to the field validations

    func decimal(_ value: Double?, _ places: Int) -> String {
        guard let value else { return "" }
        return String(format: "%.\(places)f", value)
    }

    /// Integer fields: whole numbers (a fractional measurement is rounded half away from zero).
    func integer(_ value: Double?) -> String {
        guard let value else { return "" }
        return String(Int(value.rounded()))
    }

    func yesno(_ value: Bool?) -> String { value.map { $0 ? "1" : "0" } ?? "" }

    /// `YYYY-MM-DD HH:MM` in the study's time zone (REDCap discards zone suffixes).
    func datetime(_ t: Timestamp) -> String { datetime(epochSeconds: t.epochSeconds) }
    func datetime(milliseconds ms: Int64) -> String { datetime(epochSeconds: Double(ms) / 1000) }

    func datetime(epochSeconds t: Double) -> String {
        let local = studyZone.timestamp(atEpochSeconds: t).description   // 2026-03-09T08:05:00+01:00
        return String(local.prefix(10)) + " " + String(local.dropFirst(11).prefix(5))
    }
}

/// The evaluation figures a daily row carries.
struct DailyAlert: Sendable {
    /// Nil: the day was not evaluated.
    var level: Level?
    var reasonCodes: [String]
    var factor: Double
    var rulesVersion: String
    var evaluatedAt: Int64

    init(_ e: Evaluation, at ms: Int64) {
        level = e.level
        reasonCodes = e.reasonCodes
        factor = e.factor
        rulesVersion = e.rulesVersion
        evaluatedAt = ms
    }

    init(_ e: StoredEvaluation) {
        level = e.level
        reasonCodes = e.reasonCodes
        factor = e.factor
        rulesVersion = e.rulesVersion
        evaluatedAt = e.evaluatedAt
    }
}
