import HTJSON
import HyponaTrackCore
import HyponaTrackDomain

/// The API form of the outcome report, declared once for the encoder and `/openapi.json`.
/// Shares to 4 decimals (0.8333 = 83.33 %), rates to 2, days and minutes to 1.
enum OutcomeReportJSON {
    static let report = ResponseShape<OutcomeReport>("OutcomeReport", [
        .member("generatedAt", .instant) { $0.generatedAt },
        .member("from", .nullable(.date)) { $0.query.from },
        .member("to", .nullable(.date)) { $0.query.to },
        .member("lookbackDays", .integer) { $0.lookbackDays },
        .member("hyponatremiaBelow", .number) { $0.hyponatremiaBelow },
        .member("rulesVersion", .string) { $0.rulesVersion },
        .member("cohorts", .array(.object(cohort))) { $0.cohorts },
        .member("sites", .array(.object(site))) { $0.sites },
        .member("episodes", .array(.object(episode))) { $0.episodes },
        .member("shadow", .nullable(.object(RuleTrialJSON.comparison))) { $0.shadow },
    ])

    /// One site in scope and its cohorts (`all`, then by risk class).
    static let site = ResponseShape<SiteOutcomes>(nil, [
        .member("site", .string) { $0.site },
        .member("name", .string) { $0.name },
        .member("cohorts", .array(.object(cohort))) { $0.cohorts },
    ])

    static let cohort = ResponseShape<OutcomeFigures>(nil, [
        .member("cohort", .oneOf(Cohort.allCases)) { $0.cohort },
        .member("patients", .integer) { $0.patients },
        .member("patientDays", .integer) { $0.patientDays },
        .member("episodes", .integer) { $0.episodes },
        .member("yellowOrRed", .object(warnings)) { $0.yellowOrRed },
        .member("red", .object(warnings)) { $0.red },
        .member("alerts", .object(burden)) { $0.alerts },
        .member("alertsByPOD", .array(.object(podRate))) { $0.alertsByPOD },
        .member("positivePredictiveValue", .object(proportion)) { $0.positivePredictiveValue },
        .member("contacts", .integer) { $0.contacts },
        .member("contactsPer100PatientDays", StatisticsJSON.rate) { $0.contactsPer100PatientDays },
        .member("ackMinutes", .object(StatisticsJSON.minutes)) { $0.ackMinutes },
    ])

    static let warnings = ResponseShape<Warnings>(nil, [
        .member("sensitivity", .object(proportion)) { $0.sensitivity },
        .member("medianLeadDays", .nullable(.number)) { $0.medianLeadDays.map { StatisticsJSON.round($0, 1) } },
        .member("leadHistogram", .array(.integer)) { $0.leadHistogram },
    ])

    /// `count` of `total`, the share and its 95 % Wilson interval (null without a total).
    static let proportion = ResponseShape<Proportion>(nil, [
        .member("count", .integer) { $0.count },
        .member("total", .integer) { $0.total },
        .member("value", .nullable(.number)) { $0.value.map { StatisticsJSON.round($0, 4) } },
        .member("low", .nullable(.number)) { $0.low.map { StatisticsJSON.round($0, 4) } },
        .member("high", .nullable(.number)) { $0.high.map { StatisticsJSON.round($0, 4) } },
    ])

    static let burden = ResponseShape<AlertBurden>(nil, [
        .member("opened", .integer) { $0.opened },
        .member("byLevel", .object(ResponseShape<AlertBurden>(nil, [
            .member("yellow", .integer) { $0.yellow },
            .member("red", .integer) { $0.red },
        ]))) { $0 },
        .member("byKind", .object(ResponseShape<AlertBurden>(nil, [
            .member(AlertKind.evaluation.rawValue, .integer) { $0.evaluation },
            .member(AlertKind.missingCheckin.rawValue, .integer) { $0.missingCheckin },
            .member(AlertKind.noData2d.rawValue, .integer) { $0.noData2d },
        ]))) { $0 },
        .member("per100PatientDays", .object(StatisticsJSON.rates)) { $0.per100 },
    ])

    static let podRate = ResponseShape<PODRate>(nil, [
        .member("pod", .integer) { $0.pod },
        .member("patientDays", .integer) { $0.patientDays },
        .member("alerts", .integer) { $0.alerts },
        .member("per100PatientDays", StatisticsJSON.rate) { $0.per100 },
    ])

    static let episode = ResponseShape<EpisodeWarning>(nil, [
        .member("studyId", .string(S.studyId)) { $0.studyId },
        .member("site", .string) { $0.site },
        .member("riskClass", .oneOf(RiskClass.allCases)) { $0.riskClass },
        .member("date", .date) { $0.date },
        .member("pod", .integer) { $0.pod },
        .member("source", .oneOf(OutcomeSource.allCases)) { $0.source },
        .member("firstYellowOrRed", .nullable(.date)) { $0.firstYellowOrRed },
        .member("yellowOrRedLeadDays", .nullable(.integer)) { $0.yellowOrRedLeadDays },
        .member("firstRed", .nullable(.date)) { $0.firstRed },
        .member("redLeadDays", .nullable(.integer)) { $0.redLeadDays },
    ])
}

/// The API form of a backtest, a live-versus-other comparison and the shadow's state.
enum RuleTrialJSON {
    static let levels = [Level.green, .yellow, .red]

    static let comparison = ResponseShape<RuleComparison>("RuleComparison", [
        .member("liveVersion", .string) { $0.liveVersion },
        .member("otherVersion", .string) { $0.otherVersion },
        .member("since", .nullable(.instant)) { $0.since },
        .member("daysCompared", .integer) { $0.daysCompared },
        .member("daysUnderOtherRules", .integer) { $0.daysUnderOtherRules },
        .member("daysNotEvaluated", .integer) { $0.daysNotEvaluated },
        .member("matrix", .object(matrix)) { $0.matrix },
        .member("live", .object(side)) { $0.live },
        .member("other", .object(side)) { $0.other },
        .member("changedDayCount", .integer) { $0.changedDayCount },
        .member("changedDays", .array(.object(changed))) { $0.changedDays },
    ])

    /// `{"green": {"green": n, "yellow": n, "red": n}, …}`: live level, then the other rules' level.
    static let matrix = ResponseShape<[[Int]]>(nil, levels.enumerated().map { i, live in
        ResponseMember<[[Int]]>.member(live.rawValue, .object(ResponseShape<[Int]>(nil, levels.enumerated().map { j, other in
            ResponseMember<[Int]>.member(other.rawValue, .integer) { $0[j] }
        }))) { $0[i] }
    })

    static let side = ResponseShape<SideFigures>(nil, [
        .member("yellowAlerts", .integer) { $0.yellowAlerts },
        .member("redAlerts", .integer) { $0.redAlerts },
        .member("alertsPer100PatientDays", StatisticsJSON.rate) { $0.alertsPer100PatientDays },
        .member("episodes", .integer) { $0.episodes },
        .member("sensitivity", .object(OutcomeReportJSON.proportion)) { $0.sensitivity },
        .member("redSensitivity", .object(OutcomeReportJSON.proportion)) { $0.redSensitivity },
        .member("medianLeadDays", .nullable(.number)) { $0.medianLeadDays.map { StatisticsJSON.round($0, 1) } },
        .member("positivePredictiveValue", .object(OutcomeReportJSON.proportion)) { $0.positivePredictiveValue },
    ])

    static let changed = ResponseShape<ChangedDay>(nil, [
        .member("studyId", .string(S.studyId)) { $0.studyId },
        .member("date", .date) { $0.date },
        .member("pod", .integer) { $0.pod },
        .member("live", .nullable(.level)) { $0.live },
        .member("candidate", .nullable(.level)) { $0.other },
        .member("reasons", .array(.string)) { $0.reasons },
    ])

    static let backtest = ResponseShape<BacktestResult>("Backtest", [
        .member("candidateVersion", .string) { $0.candidateVersion },
        .member("from", .nullable(.date)) { $0.from },
        .member("to", .nullable(.date)) { $0.to },
        .member("reasonsChangedDays", .integer) { $0.reasonsChangedDays },
        .member("comparison", .object(comparison)) { $0.comparison },
    ])

    static let shadow = ResponseShape<ShadowStatus>("ShadowRules", [
        .member("liveVersion", .string) { $0.liveVersion },
        .member("shadowVersion", .nullable(.string)) { $0.shadowVersion },
        .member("source", .nullable(.string)) { $0.source },
    ])
}
