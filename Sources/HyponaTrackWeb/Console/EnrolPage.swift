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
    /// The sites the member may enrol at, when the study has more than one (then the form has a
    /// required site select, the member's only site chosen in advance); nil: no select.
    var sites: [Int64: Site]? = nil

    var t: ConsoleText { layout.t }

    func render() -> HTML {
        guard let session = layout.session, session.role.canWrite else { return layout.page(t.enrol, HTML()) }
        // A member of one site: that site, and its time zone (the enrolment default) filled in.
        let only = sites.flatMap { $0.count == 1 ? $0.values.first : nil }
        let fields = FormFields(form: "enrol", errors: errors, initial: ["timeZone": only?.timeZone ?? defaultTimeZone, "site": only?.code ?? ""],
                                requiredWord: t.required)
        let site: HTML = sites.map { sites in
            let options = sites.values.sorted { $0.code < $1.code }.map { (value: $0.code, label: "\($0.code) – \($0.name)") }
            return "<fieldset class=\"group\"><legend>\(t.s("Site", "Standort"))</legend>"
                + fields.select("site", t.profileLabel("site"), options, blank: t.s("choose…", "bitte wählen…"), required: true) + "</fieldset>"
        } ?? HTML()
        let refused = fields.summary(t.fixErrors, order: ProfileForm.order, label: t.profileLabel)
        let content: HTML = """
            <p class="muted">\(t.s("Fields marked “required” must be filled in; Kat B may follow later on the patient's management page.",
                                   "Mit „Pflicht“ markierte Felder müssen ausgefüllt sein; Kat B kann später auf der Verwaltungsseite des Patienten folgen."))</p>
            <form method="post" action="/console/enrolment" id="enrol-form" class="manage" novalidate>\(ConsoleLayout.csrf(session))\(refused)
            \(site)\(ProfileForm(fields: fields, t: t, rules: rules, enrolment: true).render())
            <button type="submit">\(t.s("Enrol and show the activation code", "Aufnehmen und Aktivierungscode anzeigen"))</button></form>
            """
        return layout.page(t.enrol, content)
    }
}
