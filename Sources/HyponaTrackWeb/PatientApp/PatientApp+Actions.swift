import Foundation
import HTJSON
import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// The web check-in's form targets: activation and the two checks.
extension PatientApp {
    func activate(_ ctx: PageContext) throws -> HTTPResponse {
        let t = AppText(ctx.language)
        var page = ActivatePage(layout: layout(ctx.request, nil), formToken: ctx.signInFormToken, studyId: ctx.form["studyId"] ?? "",
                                alsoApp: ctx.form["alsoApp"] == "1")
        let studyId = ctx.field("studyId") ?? ""
        let code = ctx.field("code") ?? ""
        if !ValueRanges.isValidStudyId(studyId) { page.errors["studyId"] = t.s("Enter the study ID from your card.", "Bitte die Studien-ID von Ihrer Karte eingeben.") }
        if code.isEmpty || code.count > 40 { page.errors["code"] = t.s("Enter the activation code.", "Bitte den Aktivierungscode eingeben.") }
        // A browser signed in for another study ID is never switched silently: its checks would
        // be filed under the new ID without anyone noticing. The patient confirms first, and
        // nothing (not the code either) is used until then.
        let current = ctx.patient.flatMap { PatientRecord.key($0.studyId) == PatientRecord.key(studyId) ? nil : $0 }
        if let current, ctx.form["switch"] != "1" {
            page.signedInAs = current.studyId
            page.code = code
            if page.errors.isEmpty { page.errors["switch"] = t.confirmSwitchMissing }
            return WebResponse.page(.conflict, page.render())
        }
        guard page.errors.isEmpty else { return WebResponse.page(.badRequest, page.render()) }
        do {
            let activated = try activation.activate(Activate(studyId: studyId, code: code, clientIP: ctx.request.clientIP,
                                                             webOnly: !page.alsoApp))
            guard let session = try patients.session(token: activated.token) else { throw PageFailure(.internalServerError, "activation") }
            if let old = ctx.patient { try patients.signOut(old, ip: ctx.request.clientIP, switchedTo: activated.studyId) }
            let maxAge = try patients.secondsLeft(patientId: session.patientId)
            return WebResponse.redirect(Self.prefix, cookies: [WebResponse.cookie("ht_patient", activated.token, path: Self.prefix,
                                                                                  maxAge: maxAge, secure: ctx.request.isSecure)])
        } catch DomainError.activation(let refusal) {
            switch refusal {
            case .wrongCredentials:
                page.errors["code"] = t.s("The study ID or the code is not right.", "Studien-ID oder Code stimmen nicht.")
                return WebResponse.page(.unauthorized, page.render())
            case .expired:
                page.errors["code"] = t.s("This code has expired. Ask the study nurse for a new one.",
                                          "Dieser Code ist abgelaufen. Bitte die Studienschwester um einen neuen.")
                return WebResponse.page(HTTPStatus(rawValue: 410), page.render())
            case .accessEnded(let lastDay):
                page.errors["code"] = FieldMessages(ctx.language).accessEnded(lastDay)
                return WebResponse.page(HTTPStatus(rawValue: 410), page.render())
            case .locked(let seconds):
                page.errors["code"] = t.s("Too many wrong codes. Try again in \(max(1, seconds / 60)) minutes.",
                                          "Zu viele falsche Codes. Bitte in \(max(1, seconds / 60)) Minuten erneut versuchen.")
                var r = WebResponse.page(.tooManyRequests, page.render())
                r.headers.add(name: "Retry-After", value: String(seconds))
                return r
            }
        }
    }

    func submit(_ ctx: PageContext, _ slot: CheckForm.Slot) throws -> HTTPResponse {
        let p = ctx.patient!
        guard let (profile, zone) = try study.profileAndZone(patientId: p.patientId) else { throw DomainError.unauthenticated }
        let now = study.clock.now()
        let today = zone.localDate(atEpochSeconds: now)
        // The form's own date (a form opened before midnight still belongs to its day), never a later one.
        let posted = ctx.field("date").flatMap(LocalDate.init) ?? today
        let date = posted <= today && posted >= today.adding(days: -1) ? posted : today
        var page = form(ctx, slot, date: date, profile: profile)
        for name in page.numberFields.map(\.name) + WebAppTexts.items + ["vas"] { page.values[name] = ctx.form[name] ?? "" }
        page.checked = Set(ctx.form.values(for: "emergencySymptoms"))
        let form = CheckFormBody(form: ctx.form, slot: slot, date: date, fields: page.numberFields.map(\.name),
                                 time: zone.timestamp(atEpochSeconds: (now * 1000).rounded() / 1000))
        let rules = study.rules.snapshot.rules
        // Every problem at once, each at its field, found by the day API's own decoder (its ranges
        // and messages are the only ones); nothing is stored unless every answer passes.
        var check = FormCheck()
        let decoded = check.decode(form.answers, standIns: CheckFormBody.standIns, fallback: "date", fieldOf: CheckFormBody.formField) {
            (answers: JSONValue) throws(FieldError) -> DayPatch in
            guard case .object(let o) = answers else { throw FieldError.invalid("date", "the form could not be read") }
            return try DayPatchDecoder.decode(form.body(o), date: date, rules: rules)
        }
        for (_, refusal) in check.refusals { if case .error(let e) = refusal { page.refuse(e) } }
        guard let patch = decoded, page.errors.isEmpty else { return WebResponse.page(.badRequest, page.render()) }
        do {
            _ = try study.days.submit(SubmitDay(patientId: p.patientId, date: date, patch: patch))
            return WebResponse.redirect("/app/?saved=\(slot.rawValue)")
        } catch let e as FieldError {
            page.refuse(e)
            return WebResponse.page(.badRequest, page.render())
        } catch DomainError.rejected(let e) {
            page.refuse(e)
            return WebResponse.page(.badRequest, page.render())
        } catch DomainError.limitReached(let field, let limit) {
            page.errors[page.weightField] = FieldMessages(ctx.language).limitReached(field, limit)
            return WebResponse.page(.conflict, page.render())
        }
    }
}
