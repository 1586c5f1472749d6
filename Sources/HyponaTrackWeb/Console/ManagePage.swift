import Charts
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/patients/{studyId}/manage` (nurses and admins): edit the profile, correct a day's
/// value, delete a wrong lab value, issue a new activation code, withdraw. Each form posts to
/// its own target (`Console+Manage.swift`); a refused one comes back here with every field's
/// message at its field and what was typed.
struct ManagePage {
    let layout: ConsoleLayout
    let detail: PatientDetail
    let zone: ZoneRules
    let rules: RuleSet
    /// Today in the patient's zone (the day a correction form starts on).
    let today: LocalDate
    var errors = FormErrors()

    var t: ConsoleText { layout.t }
    var studyId: String { detail.summary.patient.studyId }
    var base: String { "/console/patients/\(URLComponentEncoding.segment(studyId))" }
    var sep: String { t.language == .de ? "," : "." }

    /// The day values a nurse corrects here (lab values have their own form on the patient's page).
    static let dayFields = ["weightMorningKg", "weightEveningKg", "fluidIntakeMl", "urineSG", "vomitingEpisodes"]

    func render() -> HTML {
        let back: HTML = "<p><a href=\"\(base)\">\(t.s("Back to the patient's page", "Zurück zur Seite des Patienten"))</a></p>"
        guard let session = layout.session, session.role.canWrite else { return layout.page("\(t.manage) \(studyId)", back) }
        guard !detail.summary.patient.isWithdrawn else {
            let note = FieldMessages(t.language).text(DomainError.ConflictProblem.patientWithdrawn)
            return layout.page("\(t.manage) \(studyId)", "<p class=\"notice\">\(note)</p>\(back)")
        }
        let csrf = ConsoleLayout.csrf(session)
        let content: HTML = """
            \(back)
            <nav class="toc" aria-label="\(t.manage)"><a href="#profile">\(t.editProfile)</a> <a href="#correct">\(t.correctDay)</a> \
            <a href="#delete-lab">\(t.deleteLab)</a> <a href="#code">\(t.newCode)</a> <a href="#withdraw">\(t.withdraw)</a></nav>
            <h2 id="profile">\(t.editProfile)</h2>
            <form method="post" action="\(base)/profile#profile" id="profile-form" class="manage" novalidate>\(csrf)\(summary("profile"))
            \(ProfileForm(fields: fields("profile", initial: ProfileForm.initial(detail.summary.patient.profile, separator: sep)),
                          t: t, rules: rules, enrolment: false).render())
            <button type="submit">\(t.saveProfile)</button></form>
            <h2 id="correct">\(t.correctDay)</h2>
            \(correctForm(csrf))
            <h2 id="delete-lab">\(t.deleteLab)</h2>
            \(deleteLabForm(csrf))
            <h2 id="code">\(t.newCode)</h2>
            <form method="post" action="\(base)/activation#code" id="code-form" class="manage">\(csrf)
            <p>\(t.s("The new code is shown once on the next page. Every earlier code and the patient's sign-ins on their devices stop working.",
                     "Der neue Code wird einmal auf der nächsten Seite angezeigt. Alle früheren Codes und die Anmeldungen des Patienten auf seinen Geräten gelten dann nicht mehr."))</p>
            \(fields("code").error("code"))<button type="submit">\(t.issueCode)</button></form>
            <h2 id="withdraw">\(t.withdraw)</h2>
            \(withdrawForm(csrf))
            """
        return layout.page("\(t.manage) \(studyId)", content)
    }

    private func fields(_ form: String, initial: [String: String] = [:]) -> FormFields {
        FormFields(form: form, errors: errors, initial: initial, requiredWord: t.required)
    }

    /// "Nothing was saved" above a refused form, with a link to each refused field.
    private func summary(_ form: String) -> HTML {
        let order = form == "profile" ? ProfileForm.order : ["date", "field", "value", "labId", "reason"]
        return fields(form).summary(t.fixErrors, order: order) { label($0, in: form) }
    }

    /// The label of a field of these forms (the profile's are `ConsoleText.profileLabel`).
    func label(_ name: String, in form: String = "correct") -> String {
        switch name {
        case "date" where form == "withdraw": return t.s("Date of withdrawal (empty: today)", "Datum des Ausscheidens (leer: heute)")
        case "date": return t.s("Day", "Tag")
        case "field": return t.s("Value", "Wert")
        case "value": return t.s("Corrected value", "Korrigierter Wert")
        case "labId": return t.s("Lab value", "Laborwert")
        case "reason": return t.reasonLabel
        default: return t.profileLabel(name)
        }
    }

    private func correctForm(_ csrf: HTML) -> HTML {
        let f = fields("correct", initial: ["date": today.description])
        let options = Self.dayFields.map { (value: $0, label: t.dayField($0)) }
        return """
            <form method="post" action="\(base)/days#correct" id="correct-form" class="manage" novalidate>\(csrf)\(summary("correct"))
            <p class="muted">\(t.s("The day is evaluated again at once, as after the patient's own entry; the change and its reason are audited.",
                                   "Der Tag wird sofort neu bewertet wie nach einer Eingabe des Patienten; Änderung und Grund werden protokolliert."))</p>
            \(f.input("date", label("date"), type: "date", required: true))
            \(f.select("field", label("field"), options, blank: t.s("choose…", "bitte wählen…"), required: true))
            \(f.input("value", label("value"), inputmode: "decimal", required: true))
            \(reason(f))
            <button type="submit">\(t.s("Save correction", "Korrektur speichern"))</button></form>
            """
    }

    private func deleteLabForm(_ csrf: HTML) -> HTML {
        let labs = detail.timeline.flatMap { day in day.day.labSodium.compactMap { lab in lab.id.map { (lab, $0) } } }
        let f = fields("delete-lab")
        // A refusal still shows when the last value went meanwhile (a resent form).
        guard !labs.isEmpty else { return "<p>\(t.s("No lab values.", "Keine Laborwerte."))</p>\(f.error("labId"))" }
        let options = labs.map { lab, id in
            (value: id, label: "\(t.time(Int64(lab.time.epochSeconds * 1000), zone: zone)): "
                + "\(ChartNumber.format(lab.value, decimals: 1, trimZeros: true, separator: sep)) mmol/\(t.s("L", "l"))")
        }
        return """
            <form method="post" action="\(base)/labs/deletion#delete-lab" id="delete-lab-form" class="manage" novalidate>\(csrf)\(summary("delete-lab"))
            <p class="muted">\(t.s("The value is kept in the audit trail, marked deleted with the reason; its day is evaluated again.",
                                   "Der Wert bleibt im Audit-Protokoll, als gelöscht markiert mit dem Grund; sein Tag wird neu bewertet."))</p>
            \(f.select("labId", label("labId"), options, blank: t.s("choose…", "bitte wählen…"), required: true))
            \(reason(f))
            <button type="submit">\(t.s("Delete lab value", "Laborwert löschen"))</button></form>
            """
    }

    private func withdrawForm(_ csrf: HTML) -> HTML {
        let f = fields("withdraw")
        return """
            <form method="post" action="\(base)/withdrawal#withdraw" id="withdraw-form" class="manage" novalidate>\(csrf)\(summary("withdraw"))
            <p class="muted">\(t.s("Monitoring ends and the patient's app stops working. This cannot be undone.",
                                   "Das Monitoring endet und die App des Patienten funktioniert nicht mehr. Das lässt sich nicht rückgängig machen."))</p>
            \(reason(f))
            \(f.input("date", label("date", in: "withdraw"), type: "date"))
            <button type="submit" class="danger">\(t.withdraw)</button></form>
            """
    }

    private func reason(_ f: FormFields) -> HTML {
        f.input("reason", label("reason"), required: true, extra: " maxlength=\"500\"")
    }
}
