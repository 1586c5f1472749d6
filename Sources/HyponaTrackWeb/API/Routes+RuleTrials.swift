import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

extension Routes {
    /// The outcome report (every staff role) and the rules' trials: backtest, shadow rules,
    /// promotion (admin) — docs/product.md, third round, O.
    static func ruleTrials(_ service: StudyService) -> [Route] {
        let with = Responses.adding(to: Responses.staff(notFound: "nothing here"))
        let dates = [RuleTrialQuery.from, RuleTrialQuery.to]
        let rulesBody = S.body(RuleTrialBodies.files.map(\.required.member))
        return [
            Route(.get, "/v1/outcomes/report", access: .staff(.read), touches: .list,
                  summary: "The outcome report: episodes, warned episodes and lead times, sensitivity with its 95 % Wilson interval, alert burden, positive predictive value, contacts, time to acknowledgement, by risk class and by site; live beside shadow rules",
                  query: dates + [SiteParameters.filter],
                  responses: Responses.longRead(with([200: ("the report", OutcomeReportJSON.report.reference)]))) { ctx in
                let query = OutcomeReportQuery(from: try RuleTrialQuery.date(ctx, "from"), to: try RuleTrialQuery.date(ctx, "to"), scope: ctx.scope)
                return .json(.ok, OutcomeReportJSON.report.encode(try service.outcomeReport.report(query)))
            },
            Route(.post, "/v1/rules/backtest", access: .staff(.admin), touches: .list,
                  summary: "Replay every stored patient-day (of one site with ?site=) under candidate rules (each rule file's text as a string; the body up to 1 MiB); writes nothing but its audit row; at most 1,000 changed days listed, changedDayCount complete",
                  request: rulesBody, maxBodyBytes: RuleTrialBodies.maxBodyBytes, query: dates + [SiteParameters.filter],
                  responses: Responses.longRead(with([200: ("live against candidate", RuleTrialJSON.backtest.reference)]))) { ctx in
                let texts = try decodeBody(ctx.body) { r throws(FieldError) in try RuleTrialBodies.texts(r) }
                let request = BacktestRequest(candidate: texts, from: try RuleTrialQuery.date(ctx, "from"),
                                              to: try RuleTrialQuery.date(ctx, "to"), site: ctx.query("site"), scope: ctx.scope,
                                              actor: ctx.actor)
                return .json(.ok, RuleTrialJSON.backtest.encode(try service.ruleTrials.backtest(request)))
            },
            Route(.get, "/v1/rules/shadow", access: .staff(.read), touches: .system,
                  summary: "The shadow rules in force (their version and where they come from) and the live version",
                  responses: with([200: ("the shadow", RuleTrialJSON.shadow.reference)])) { _ in
                .json(.ok, RuleTrialJSON.shadow.encode(ShadowStatus(service.ruleTrials.shadow, live: service.rules.snapshot.rules.version)))
            },
            Route(.put, "/v1/rules/shadow", access: .staff(.admin), touches: .system,
                  summary: "Set shadow rules (each rule file's text as a string): every evaluation is also computed under them, with no alert, hook, patient or REDCap effect; kept across restarts",
                  request: rulesBody, maxBodyBytes: RuleTrialBodies.maxBodyBytes,
                  responses: with([200: ("the shadow", RuleTrialJSON.shadow.reference)])) { ctx in
                let texts = try decodeBody(ctx.body) { r throws(FieldError) in try RuleTrialBodies.texts(r) }
                let shadow = try service.ruleTrials.setShadow(texts, actor: ctx.actor)
                return .json(.ok, RuleTrialJSON.shadow.encode(ShadowStatus(shadow, live: service.rules.snapshot.rules.version)))
            },
            Route(.delete, "/v1/rules/shadow", access: .staff(.admin), touches: .system,
                  summary: "Turn the shadow rules off (also over rules.shadow in the configuration)",
                  responses: with([200: ("the shadow, off", RuleTrialJSON.shadow.reference)])) { ctx in
                let shadow = try service.ruleTrials.setShadow(nil, actor: ctx.actor)
                return .json(.ok, RuleTrialJSON.shadow.encode(ShadowStatus(shadow, live: service.rules.snapshot.rules.version)))
            },
            Route(.post, "/v1/rules/promote", access: .staff(.admin), touches: .system,
                  summary: "Make the shadow rules live: the rule files are replaced atomically (the old kept as *.previous) and reloaded; the shadow is turned off; stored days are not re-evaluated",
                  responses: with([200: ("the shadow (off) and the new live version", RuleTrialJSON.shadow.reference),
                                   409: ("no shadow rules are set", S.error)])) { ctx in
                _ = try service.ruleTrials.promote(actor: ctx.actor)
                return .json(.ok, RuleTrialJSON.shadow.encode(ShadowStatus(service.ruleTrials.shadow, live: service.rules.snapshot.rules.version)))
            },
        ]
    }
}

/// `?from=YYYY-MM-DD&to=YYYY-MM-DD`.
enum RuleTrialQuery {
    static let from = QueryParameter("from", schema: S.date, description: "the first date counted (absent: unbounded)")
    static let to = QueryParameter("to", schema: S.date, description: "the last date counted (absent: unbounded)")

    static func date(_ ctx: RequestContext, _ name: String) throws -> LocalDate? {
        guard let text = ctx.query(name) else { return nil }
        guard let date = LocalDate(text) else { throw APIError.invalid(name, "\(name) is a date YYYY-MM-DD") }
        return date
    }
}

/// The four rule files as the backtest and shadow bodies carry them: each file's text as a string,
/// the whole body up to 1 MiB (docs/product.md, settled O; larger → 413 `too_large`).
enum RuleTrialBodies {
    static let maxBodyBytes = 1 << 20
    static let files = RuleTexts.bodyKeys.map { key, _ in BodyField.secret(key, length: 1...maxBodyBytes) }

    static func texts(_ r: ObjectReader) throws(FieldError) -> RuleTexts {
        var out: [String: [UInt8]] = [:]
        for (field, (_, file)) in zip(files, RuleTexts.bodyKeys) { out[file] = Array(try r.required(field.required).utf8) }
        return RuleTexts(files: out)
    }
}

/// The shadow rules as the API shows them.
struct ShadowStatus: Sendable {
    var liveVersion: String
    var shadowVersion: String?
    var source: String?

    init(_ current: ShadowRules.Current?, live: String) {
        liveVersion = live
        shadowVersion = current?.snapshot.rules.version
        source = current?.source.rawValue
    }
}
