import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/enrolment` (nurses and admins): the enrolment form, the same fields as
/// `POST /v1/patients`. The activation code comes on the next page, once (`ActivationCodePage`).
struct EnrolPage {
    let layout: ConsoleLayout
    let rules: RuleSet
    /// The study's default time zone (`defaultTimeZone`), filled in.
    let defaultTimeZone: String
    var errors = FormErrors()

    var t: ConsoleText { layout.t }

    func render() -> HTML {
        guard let session = layout.session, session.role.canWrite else { return layout.page(t.enrol, HTML()) }
        let fields = FormFields(form: "enrol", errors: errors, initial: ["timeZone": defaultTimeZone], requiredWord: t.required)
        let refused = fields.summary(t.fixErrors, order: ProfileForm.order, label: t.profileLabel)
        let content: HTML = """
            <p class="muted">\(t.s("Fields marked “required” must be filled in; Kat B may follow later on the patient's management page.",
                                   "Mit „Pflicht“ markierte Felder müssen ausgefüllt sein; Kat B kann später auf der Verwaltungsseite des Patienten folgen."))</p>
            <form method="post" action="/console/enrolment" id="enrol-form" class="manage" novalidate>\(ConsoleLayout.csrf(session))\(refused)
            \(ProfileForm(fields: fields, t: t, rules: rules, enrolment: true).render())
            <button type="submit">\(t.s("Enrol and show the activation code", "Aufnehmen und Aktivierungscode anzeigen"))</button></form>
            """
        return layout.page(t.enrol, content)
    }
}
