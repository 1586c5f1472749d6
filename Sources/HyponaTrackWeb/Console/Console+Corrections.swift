import HTJSON
import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// Corrections from the console's management page: a day's value (the staff correction's one
/// path, `DayService.correct`, re-evaluated and audited as there) and deleting a wrong lab value
/// (`CorrectionService.deleteLab`: kept, marked deleted, with the reason). The console asks for
/// a reason for both (docs/product.md, third round, C; the API keeps a day's reason optional).
extension Console {
    func correctDay(_ ctx: PageContext) throws -> HTTPResponse {
        let stored = try study.patients.show(studyId: ctx.parameter("studyId")).summary.patient
        let t = ConsoleText(ctx.language)
        let rules = study.rules.snapshot.rules
        let fields = ["date", "field", "value", "reason"]
        let refuse = { (check: FormCheck, status: HTTPStatus) in
            try self.refused(ctx, form: "correct", check, echo: FormInput.echo(ctx.form, fields), shown: fields, status: status) {
                try self.managePage(ctx, errors: $0)
            }
        }
        var check = FormCheck()
        let date = ctx.field("date").flatMap(LocalDate.init)
        if date == nil { check.note("date", FieldError.invalid("date", "not a date", problem: ctx.field("date") == nil ? .required : nil)) }
        let field = ctx.field("field").flatMap { ManagePage.dayFields.contains($0) ? $0 : nil }
        if field == nil {
            check.note("field", FieldError.invalid("field", "not a day value", problem: ctx.field("field") == nil ? .required : .notOneOf(allowed: [])))
        }
        if ctx.field("reason") == nil { check.note("reason", FieldError.invalid("reason", "is required", problem: .required)) }
        var members = FormInput.object(ctx.form, [("reason", .text)])
        if let field {
            if let value = ctx.field("value") { members[field] = FormInput.number(value) } else {
                check.note("value", FieldError.invalid("value", "is required", problem: .required))
            }
        }
        // The day's own decoder and the reason's declaration decide; a refusal of the value names
        // the day field (`urineSG`), worded with that field's precision at the form's one input.
        let decoded = check.decode(members, fallback: "value", fieldOf: { $0.field == "reason" ? "reason" : "value" }) { b throws(FieldError) in
            try DayCorrectionBody.decode(b, date: date ?? LocalDate("2026-01-01")!, rules: rules)
        }
        guard let decoded, let date else {
            var worded = FormCheck()
            for (name, refusal) in check.refusals {
                switch refusal {
                case .error(let e) where name == "value": worded.note(name, said: t.refusal(field ?? "value", e))
                case .error(let e): worded.note(name, e)
                case .said(let message): worded.note(name, said: message)
                }
            }
            return try refuse(worded, .badRequest)
        }
        do {
            _ = try study.days.correct(CorrectDay(studyId: stored.studyId, date: date, patch: decoded.patch, reason: decoded.reason,
                                                actor: ctx.actor))
            return WebResponse.redirect(Self.patientPath(stored.studyId, "?done=day#days"))
        } catch let e as DomainError {
            guard let found = refusal(e, fallback: "value", language: ctx.language) else { throw e }
            // The day's refusals name `date` (outside the window, in the future); anything else is the value's.
            return try refuse(FormCheck(found.field == "date" ? "date" : "value", said: found.message), found.status)
        }
    }

    func deleteLab(_ ctx: PageContext) throws -> HTTPResponse {
        let stored = try study.patients.show(studyId: ctx.parameter("studyId")).summary.patient
        let t = ConsoleText(ctx.language)
        let fields = ["labId", "reason"]
        let refuse = { (check: FormCheck, status: HTTPStatus) in
            try self.refused(ctx, form: "delete-lab", check, echo: FormInput.echo(ctx.form, fields), shown: fields, status: status) {
                try self.managePage(ctx, errors: $0)
            }
        }
        var check = FormCheck()
        let labId = ctx.field("labId").flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
        if labId == nil {
            check.note("labId", FieldError.invalid("labId", "not a lab value id", problem: ctx.field("labId") == nil ? .required : .notOneOf(allowed: [])))
        }
        let reason = check.decode(FormInput.object(ctx.form, [("reason", .text)]), fallback: "reason") { b throws(FieldError) in
            try decodeBody(b) { r throws(FieldError) in try r.required(PatientBodies.reason.required) }
        }
        guard let reason, let labId else { return try refuse(check, .badRequest) }
        do {
            _ = try study.corrections.deleteLab(DeleteLab(studyId: stored.studyId, labId: labId, reason: reason, actor: ctx.actor))
            return WebResponse.redirect(Self.patientPath(stored.studyId, "?done=lab-deleted#labs"))
        } catch DomainError.notFound(_, nil) {
            // Deleted already (another nurse, a resent form) or not this patient's.
            let message = t.s("This lab value no longer exists for this patient (deleted already?); nothing was changed.",
                              "Diesen Laborwert gibt es für diesen Patienten nicht mehr (schon gelöscht?); es wurde nichts geändert.")
            return try refuse(FormCheck("labId", said: message), .notFound)
        } catch let e as DomainError {
            guard let found = refusal(e, fallback: "labId", language: ctx.language) else { throw e }
            return try refuse(FormCheck(fields.contains(found.field) ? found.field : "labId", said: found.message), found.status)
        }
    }
}
