import Foundation
import HTJSON
import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// The patient check-in in any phone's browser (`/app/…`): activation, today's light and
/// tasks, the morning and evening checks. Works without JavaScript (forms post and redirect);
/// values are read by the day API's own decoder, so the ranges are the API's; a refusal is
/// worded in the page's language at its field (`FieldMessages`).
struct PatientApp: Sendable {
    let study: StudyService
    let activation: ActivationService
    let patients: PatientWebSessions
    let activateLimit: AnonymousLimit
    /// "Remind me on this phone" (Web Push), with its routes.
    let push: PushRegistration

    static let prefix = "/app/"

    func routes() -> [Route] {
        [
            Route(.get, "/app", access: .anonymous, touches: .system) { _ in WebResponse.redirect(Self.prefix) },
            Route(.get, "/app/static/{file}", access: .anonymous, touches: .system) { ctx in
                guard ctx.parameter("file") == AppAssets.cssName else { throw PageFailure.notFound(ctx.request.http.path, ctx.language) }
                return WebResponse.asset(AppAssets.css, type: "text/css; charset=utf-8", immutable: true)
            },
            Route(.get, "/app/manifest.webmanifest", access: .anonymous, touches: .system) { _ in
                WebResponse.asset(AppAssets.manifest(name: "HyponaTrack"), type: "application/manifest+json", immutable: false)
            },
            Route(.get, "/app/icon.svg", access: .anonymous, touches: .system) { _ in WebResponse.asset(AppAssets.icon, type: "image/svg+xml", immutable: false) },
            Route(.get, "/app/language", access: .anonymous, touches: .system) { ctx in WebResponse.languageSwitch(ctx, prefix: "/app", home: Self.prefix) },
            Route(.get, "/app/activate", access: .signIn, touches: .system) { ctx in
                // The activation link (`app.publicURL`) pre-fills the form; only the patient's POST
                // uses the code, so a link preview or a prefetch never does.
                let study = ctx.query("study").map { String($0.prefix(64)) } ?? ""
                let code = ctx.query("code").map { String($0.prefix(40)) } ?? ""
                if ctx.patient != nil && code.isEmpty { return WebResponse.redirect(Self.prefix) }
                return WebResponse.page(.ok, ActivatePage(layout: layout(ctx), formToken: ctx.signInFormToken, studyId: study, code: code).render())
            },
            Route(.post, "/app/activate", access: .signIn, touches: .ownRecord, limit: activateLimit) { ctx in try activate(ctx) },
            Route(.get, "/app/", access: .patient, touches: .ownRecord) { ctx in try todayPage(ctx) },
            Route(.get, "/app/morning", access: .patient, touches: .ownRecord) { ctx in try checkPage(ctx, .morning) },
            Route(.post, "/app/morning", access: .patient, touches: .ownRecord) { ctx in try submit(ctx, .morning) },
            Route(.get, "/app/evening", access: .patient, touches: .ownRecord) { ctx in try checkPage(ctx, .evening) },
            Route(.post, "/app/evening", access: .patient, touches: .ownRecord) { ctx in try submit(ctx, .evening) },
            ] + push.routes() + [
            Route(.post, "/app/signout", access: .patientSignOut, touches: .ownRecord) { ctx in
                if let p = ctx.patient { try patients.signOut(p, ip: ctx.request.clientIP) }
                return WebResponse.redirect("/app/activate", cookies: [WebResponse.cookie("ht_patient", "", path: Self.prefix, maxAge: 0,
                                                                                   secure: ctx.request.isSecure)])
            },
        ]
    }

    func layout(_ ctx: PageContext) -> AppLayout { layout(ctx.request, ctx.patient) }

    func layout(_ request: WebRequest, _ patient: PatientWebSession?) -> AppLayout {
        AppLayout(request: request, patient: patient,
                  disclaimer: study.rules.snapshot.rules.instructions.disclaimer(request.language.rawValue,
                                                                                 emergencyNumber: numbers(patient).emergencyNumber))
    }

    /// The patient's site's clinic phone and emergency number, else the study's (`app.*`).
    func numbers(_ patient: PatientWebSession?) -> ContactNumbers {
        let app = study.configuration.app
        guard let patient, let numbers = try? study.sites.numbers(patientId: patient.patientId, app: app) else {
            return ContactNumbers(clinicPhone: app.clinicPhone, emergencyNumber: app.emergencyNumber)
        }
        return numbers
    }

    func errorPage(_ failure: PageFailure, _ request: WebRequest, _ session: WebSession?) -> HTML {
        let l = layout(request, nil)
        return l.page(l.t.s("Something went wrong", "Etwas ist schiefgelaufen"),
                      "<p class=\"error\" role=\"alert\">\(failure.message)</p><p><a href=\"/app/\">\(l.t.today)</a></p>")
    }

    // MARK: pages

    private func todayPage(_ ctx: PageContext) throws -> HTTPResponse {
        let p = ctx.patient!
        let today = try study.days.today(patientId: p.patientId)
        let zone = try zone(p)
        // The patient's site's numbers, ladder and zone, each else the study's.
        let site = try study.sites.site(patientId: p.patientId)
        let app = SiteService.numbers(site, app: study.configuration.app)
        let box = InstructionBox(t: AppText(ctx.language), studyId: p.studyId, clinicPhone: app.clinicPhone, emergencyNumber: app.emergencyNumber,
                                 call: study.configuration.clinicCall(atEpochSeconds: study.clock.now(), site: site),
                                 texts: study.rules.snapshot.rules.instructions.webApp)
        var page = TodayPage(layout: layout(ctx), today: today, zone: zone, emergencyNumber: app.emergencyNumber,
                             box: box, saved: ctx.query("saved") != nil)
        page.remind = push.control(p, language: ctx.language)
        return WebResponse.page(.ok, page.render())
    }

    /// The patient's time zone (one row read, not the whole timeline).
    func zone(_ p: PatientWebSession) throws -> ZoneRules {
        guard let zone = try study.zone(patientId: p.patientId) else { throw DomainError.unauthenticated }
        return zone
    }

    func form(_ ctx: PageContext, _ slot: CheckForm.Slot, date: LocalDate, profile: PatientProfile) -> CheckForm {
        let rules = study.rules.snapshot.rules
        return CheckForm(layout: layout(ctx), slot: slot, date: date, texts: rules.instructions.webApp,
                         emergencyCodes: rules.thresholds.emergencySymptoms, emergencyNumber: numbers(ctx.patient).emergencyNumber,
                         fluidLimitMl: profile.fluidLimitMl, desmopressinPrescribed: profile.desmopressinPrescribed)
    }

    private func checkPage(_ ctx: PageContext, _ slot: CheckForm.Slot) throws -> HTTPResponse {
        let p = ctx.patient!
        guard let (profile, zone) = try study.profileAndZone(patientId: p.patientId) else { throw DomainError.unauthenticated }
        let date = zone.localDate(atEpochSeconds: study.clock.now())
        var page = form(ctx, slot, date: date, profile: profile)
        // What this day's form already saved, to change rather than retype.
        if let day = try study.days.days(DaysQuery(patientId: p.patientId, from: date, to: date)).first?.day {
            let weight = slot == .morning ? day.weightMorningKg : day.weightEveningKg
            if let weight { page.values[page.weightField] = Self.number(weight) }
            if slot == .morning, let sg = day.urineSG { page.values["urineSG"] = Self.number(sg) }
            if let fluid = day.fluidIntakeMl { page.values["fluidIntakeMl"] = Self.number(fluid) }
            if let vomiting = day.vomitingEpisodes { page.values["vomitingEpisodes"] = String(vomiting) }
            if let dose = day.desmopressinDoses.first(where: { $0.id == CheckForm.doseId(slot, date) }) {
                page.values[CheckForm.doseField] = Self.number(dose.doseMcg)
            }
            if let entry = day.symptoms.first(where: { $0.id == CheckForm.entryId(slot, date) }) {
                for (name, v) in [("nausea", entry.nausea), ("headache", entry.headache), ("fatigue", entry.fatigue),
                                  ("confusion", entry.confusion), ("muscleCramps", entry.muscleCramps), ("vas", entry.vas)] {
                    page.values[name] = String(v)
                }
            }
        }
        return WebResponse.page(.ok, page.render())
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }
}
