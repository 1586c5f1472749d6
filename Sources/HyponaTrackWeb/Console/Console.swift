import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// The clinician console (`/console/…`): its pages and form targets over the study's services.
/// Server-rendered HTML that works without JavaScript; a viewer sees everything and no forms.
struct Console: Sendable {
    let study: StudyService
    let sessions: SessionService
    let secondFactor: SecondFactorService
    /// Sign-in through the OpenID provider (nil: not configured).
    let singleSignOn: SingleSignOnService?
    /// Whether the password form is offered (`console.passwordSignIn`).
    let passwordSignIn: Bool
    let sync: SyncService?
    /// Each configured hook with its delivery figures.
    let hooks: @Sendable () throws -> [(hook: HookConfiguration, summary: HookOutboxSummary)]
    /// The per-address bucket the sign-in form shares with activation.
    let signInLimit: AnonymousLimit
    /// Activation codes on their way to the page that shows them once.
    let codes = OneTimeCodes()

    static let prefix = "/console/"

    func routes() -> [Route] {
        [
            Route(.get, "/console", access: .anonymous, touches: .system) { _ in WebResponse.redirect(Self.prefix) },
            Route(.get, "/console/static/{file}", access: .anonymous, touches: .system) { ctx in try stylesheet(ctx) },
            Route(.get, "/console/login", access: .signIn, touches: .system) { ctx in signInPage(ctx) },
            Route(.post, "/console/login", access: .signIn, touches: .system, limit: signInLimit) { ctx in try signIn(ctx) },
            Route(.post, "/console/logout", access: .staffSignOut, touches: .system) { ctx in try signOut(ctx) },
        ] + singleSignOnRoutes() + [
            Route(.get, "/console/language", access: .anonymous, touches: .system) { ctx in WebResponse.languageSwitch(ctx, prefix: "/console", home: Self.prefix) },
            Route(.get, "/console/", access: .staff(.read), touches: .list) { ctx in try board(ctx) },
            Route(.get, SecondFactorPage.path, access: .staff(.read), touches: .system) { ctx in try secondFactorPage(ctx) },
            Route(.post, SecondFactorPage.path, access: .staff(.read), touches: .system) { ctx in try setUpSecondFactor(ctx) },
            Route(.post, SecondFactorPage.path + "/confirmation", access: .staff(.read), touches: .system) { ctx in
                try confirmSecondFactor(ctx)
            },
            Route(.get, "/console/patients/{studyId}", access: .staff(.read), touches: .patient) { ctx in try patient(ctx) },
            Route(.post, "/console/patients/{studyId}/labs", access: .staff(.write), touches: .patient) { ctx in try addLab(ctx) },
            Route(.post, "/console/patients/{studyId}/contacts", access: .staff(.write), touches: .patient) { ctx in try addContact(ctx) },
            Route(.post, "/console/patients/{studyId}/outcomes", access: .staff(.write), touches: .patient) { ctx in try addOutcome(ctx) },
            Route(.get, "/console/outcomes", access: .staff(.read), touches: .list) { ctx in try outcomesPage(ctx) },
            Route(.get, "/console/export/outcomes.csv", access: .staff(.read), touches: .export) { ctx in try csv(ctx, .outcomes) },
            Route(.get, "/console/enrolment", access: .staff(.write), touches: .enrolment) { ctx in WebResponse.page(.ok, try enrolPage(ctx)) },
            Route(.post, "/console/enrolment", access: .staff(.write), touches: .enrolment) { ctx in try enrol(ctx) },
            Route(.get, "/console/patients/{studyId}/manage", access: .staff(.write), touches: .patient) { ctx in
                WebResponse.page(.ok, try managePage(ctx))
            },
            Route(.post, "/console/patients/{studyId}/profile", access: .staff(.write), touches: .patient) { ctx in try updateProfile(ctx) },
            Route(.post, "/console/patients/{studyId}/activation", access: .staff(.write), touches: .patient) { ctx in try reissueCode(ctx) },
            Route(.get, "/console/patients/{studyId}/code", access: .staff(.write), touches: .patient) { ctx in try codePage(ctx) },
            Route(.post, "/console/patients/{studyId}/withdrawal", access: .staff(.write), touches: .patient) { ctx in try withdraw(ctx) },
            Route(.post, "/console/patients/{studyId}/days", access: .staff(.write), touches: .patient) { ctx in try correctDay(ctx) },
            Route(.post, "/console/patients/{studyId}/labs/deletion", access: .staff(.write), touches: .patient) { ctx in try deleteLab(ctx) },
            Route(.get, "/console/alerts", access: .staff(.read), touches: .list) { ctx in try inbox(ctx) },
            Route(.post, "/console/alerts/{alertId}/acknowledge", access: .staff(.write), touches: .alert) { ctx in try acknowledge(ctx) },
            Route(.post, "/console/alerts/{alertId}/resolve", access: .staff(.write), touches: .alert) { ctx in try resolve(ctx) },
            Route(.get, "/console/statistics", access: .staff(.read), touches: .list) { ctx in try statistics(ctx) },
            Route(.get, "/console/proposals", access: .staff(.read), touches: .list) { ctx in try proposals(ctx) },
            Route(.post, "/console/proposals/{proposalId}/confirm", access: .staff(.write), touches: .proposal) { ctx in try decideProposal(ctx, confirm: true) },
            Route(.post, "/console/proposals/{proposalId}/reject", access: .staff(.write), touches: .proposal) { ctx in try decideProposal(ctx, confirm: false) },
            Route(.get, "/console/export/days.csv", access: .staff(.read), touches: .export) { ctx in try csv(ctx, .days) },
            Route(.get, "/console/export/alerts.csv", access: .staff(.read), touches: .export) { ctx in try csv(ctx, .alerts) },
            Route(.get, "/console/export/contacts.csv", access: .staff(.read), touches: .export) { ctx in try csv(ctx, .contacts) },
            Route(.get, "/console/sync", access: .staff(.admin), touches: .list) { ctx in try syncPage(ctx) },
            Route(.get, "/console/patients/{studyId}/report.pdf", access: .staff(.read), touches: .patient) { ctx in
                Routes.pdfResponse(try study.reports.report(ClinicalReportRequest(studyId: ctx.parameter("studyId"),
                                                                                  language: ctx.language, actor: ctx.actor)))
            },
        ]
    }

    func layout(_ ctx: PageContext) -> ConsoleLayout { ConsoleLayout(request: ctx.request, session: ctx.session) }

    func errorPage(_ failure: PageFailure, _ request: WebRequest, _ session: WebSession?) -> HTML {
        let layout = ConsoleLayout(request: request, session: session)
        let t = layout.t
        let back: HTML = session == nil ? "<p><a href=\"/console/login\">\(t.signIn)</a></p>" : "<p><a href=\"/console/\">\(t.board)</a></p>"
        return layout.page("\(t.s("Error", "Fehler")) \(failure.status.rawValue)", "<p class=\"error\" role=\"alert\">\(failure.message)</p>\(back)")
    }

    // MARK: pages

    private func stylesheet(_ ctx: PageContext) throws -> HTTPResponse {
        guard ctx.parameter("file") == ConsoleStylesheet.fileName else { throw PageFailure.notFound(ctx.request.http.path, ctx.language) }
        return WebResponse.asset(ConsoleStylesheet.css, type: "text/css; charset=utf-8", immutable: true)
    }

    private func board(_ ctx: PageContext) throws -> HTTPResponse {
        let all = ctx.query("all") == "1"
        // One clock read: the rows and the submission ages are of the same instant (`WardBoard.at`).
        var page = BoardPage(layout: layout(ctx), board: try study.patients.board(all: all, scope: ctx.scope), all: all,
                             facts: ReasonWording.Facts(rules: study.rules.snapshot.rules))
        page.sites = try siteChoices(ctx)
        return WebResponse.page(.ok, page.render())
    }

    /// The study's sites for the site column and filters: an all-sites member's, when the
    /// study has more than one (a site-bound member gets neither).
    func siteChoices(_ ctx: PageContext) throws -> [Int64: Site]? {
        guard ctx.allSites else { return nil }
        let all = try study.sites.sitesById()
        return all.count > 1 ? all : nil
    }

    func patientPage(_ ctx: PageContext, errors: FormErrors = FormErrors()) throws -> HTML {
        let studyId = ctx.parameter("studyId")
        let detail = try study.patients.show(studyId: studyId)
        let zone = study.zone(detail.summary.patient.profile)
        return PatientPage(layout: layout(ctx), detail: detail, alerts: try study.alerts.alerts(studyId: studyId),
                           contacts: try study.contacts.contacts(studyId: studyId),
                           outcomes: try study.outcomes.outcomes(studyId: studyId),
                           reminders: try study.devices.reminders(studyId: studyId, days: 14), charts: try study.patients.trendCharts(studyId: studyId, language: ctx.language), zone: zone,
                           rules: study.rules.snapshot.rules, errors: errors).render()
    }

    private func patient(_ ctx: PageContext) throws -> HTTPResponse { WebResponse.page(.ok, try patientPage(ctx)) }

    func inboxPage(_ ctx: PageContext, errors: FormErrors = FormErrors()) throws -> HTML {
        // A form refused on the inbox shows the page it was sent from, with the filters it carried.
        let filter = ctx.request.http.method == .post ? InboxFilter.returned(ctx.form[InboxFilter.formFieldName], language: ctx.language)
            : try InboxFilter({ ctx.query($0) }, language: ctx.language)
        var query = filter.query
        // A form sent from a site-filtered inbox returns to it (a GET's `?site=` the router narrowed already).
        query.scope = filter.site.isEmpty ? ctx.scope : try study.sites.filter(site: filter.site, scope: ctx.scope)
        let page = try study.alerts.alerts(query)
        var inbox = InboxPage(layout: layout(ctx), filter: filter, alerts: page.alerts, hasOlder: page.olderBefore != nil,
                              zone: try zoneLookup(), facts: ReasonWording.Facts(rules: study.rules.snapshot.rules), errors: errors)
        inbox.sites = try siteChoices(ctx)
        return inbox.render()
    }

    private func inbox(_ ctx: PageContext) throws -> HTTPResponse { WebResponse.page(.ok, try inboxPage(ctx)) }

    /// Each patient's zone by study ID (alert times are shown in the patient's time zone).
    func zoneLookup() throws -> (String) -> ZoneRules {
        let zones = try study.zonesByStudyId()
        let fallback = study.studyZone
        return { id in zones[id] ?? fallback }
    }

    private func statistics(_ ctx: PageContext) throws -> HTTPResponse {
        var page = StatisticsPage(layout: layout(ctx), statistics: try study.statistics.statistics(StatisticsQuery(studyId: nil, scope: ctx.scope)))
        page.sites = try siteChoices(ctx)
        page.site = ctx.query("site") ?? ""
        return WebResponse.page(.ok, page.render())
    }

    /// A CSV download; `?dialect=excel` in the page's language unless `lang` says otherwise.
    private func csv(_ ctx: PageContext, _ kind: ExportKind) throws -> HTTPResponse {
        let dialect = try CSVParameters.dialect({ ctx.query($0) }, pageLanguage: ctx.language)
        return Routes.csvResponse(try study.exports.export(ExportCSV(kind: kind, studyId: nil, scope: ctx.scope, actor: ctx.actor, dialect: dialect)))
    }

    private func syncPage(_ ctx: PageContext) throws -> HTTPResponse {
        let zone = study.studyZone
        return WebResponse.page(.ok, SyncPage(layout: layout(ctx), sync: try sync?.status(), hooks: try hooks(), zone: zone).render())
    }
}
