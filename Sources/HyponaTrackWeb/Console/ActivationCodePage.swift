import HTML
import QRCode
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/patients/{studyId}/code`: a new activation code, shown once (after enrolment or a
/// reissue), with the study ID, when it expires and what the patient does with it. Like every
/// console page it is sent with `Cache-Control: no-store`; a second look finds nothing.
struct ActivationCodePage {
    let layout: ConsoleLayout
    /// Nil when the code was shown already (or is too old, or the server restarted).
    let issued: OneTimeCodes.Issued?
    let studyId: String
    let zone: ZoneRules
    /// `{app.publicURL}/app/activate?study=…&code=…` (nil without `app.publicURL`): drawn as a QR code.
    var activationURL: String? = nil
    var clinicPhone: String? = nil
    /// `{app.publicURL}/app/`: where patients reach the check-in (else this request's host).
    var publicAppURL: String? = nil

    var t: ConsoleText { layout.t }

    func render() -> HTML {
        let patient = "/console/patients/\(URLComponentEncoding.segment(studyId))"
        guard let issued else {
            return layout.page(t.s("Activation code", "Aktivierungscode"), """
                <p class="error" role="alert">\(t.s("This code was shown once and cannot be shown again. If it was lost, issue a new code (the old one stops working).",
                                                     "Dieser Code wurde einmal angezeigt und kann nicht noch einmal angezeigt werden. Falls er verloren ging, einen neuen Code ausstellen (der alte wird damit ungültig)."))</p>
                <p><a href="\(patient)/manage#code">\(t.newCode)</a> · <a href="\(patient)">\(t.s("Patient", "Patient")) \(studyId)</a></p>
                """)
        }
        let expires = t.time(issued.expiresAt, zone: zone)
        let enrolled: HTML = issued.monitoringEnds.map { ends in
            "<p class=\"notice\" role=\"status\">\(t.s("Patient \(issued.studyId) is enrolled; monitoring runs until \(t.date(ends)).", "Patient \(issued.studyId) ist aufgenommen; das Monitoring läuft bis \(t.date(ends))."))</p>"
        } ?? "<p class=\"notice\" role=\"status\">\(t.s("A new code was issued; every earlier code and the patient's earlier sign-ins no longer work.", "Ein neuer Code wurde ausgestellt; alle früheren Codes und Anmeldungen des Patienten gelten nicht mehr."))</p>"
        let content: HTML = """
            <div class="no-print">\(enrolled)</div>
            <p class="error no-print">\(t.s("Write the code down or hand it to the patient now: it is shown only this once.",
                                  "Code jetzt notieren oder dem Patienten geben: er wird nur dieses eine Mal angezeigt."))</p>
            <dl class="profile code">
            <dt>\(t.studyId)</dt><dd id="code-study-id">\(issued.studyId)</dd>
            <dt>\(t.s("Activation code", "Aktivierungscode"))</dt><dd><code class="activation-code" id="activation-code">\(issued.code)</code></dd>
            <dt>\(t.s("Valid until", "Gültig bis"))</dt><dd id="code-expires">\(expires) (\(t.s("patient's local time", "Ortszeit des Patienten")))</dd>
            </dl>
            <h2>\(t.s("For the patient", "Für den Patienten"))</h2>
            \(instructions(issued))
            \(handout(issued))
            <p class="no-print"><a href="\(patient)">\(t.s("Go to the patient's page", "Zur Seite des Patienten"))</a></p>
            """
        return layout.page(t.s("Activation code", "Aktivierungscode"), content)
    }

    /// What the patient does with the code, in the page's language (hand the page over or read it out).
    private func instructions(_ issued: OneTimeCodes.Issued) -> HTML {
        let scheme = layout.request.isSecure ? "https" : "http"
        let web = publicAppURL ?? (layout.request.host.isEmpty ? "/app/" : "\(scheme)://\(layout.request.host)/app/")
        return """
            <ol class="instructions" id="activation-instructions">
            <li>\(t.s("Open the HyponaTrack app on your phone, or open \(web) in your phone's browser if you use it without the app.",
                      "Öffnen Sie die HyponaTrack-App auf Ihrem Telefon oder, wenn Sie ohne App teilnehmen, \(web) im Browser Ihres Telefons."))</li>
            <li>\(t.s("Enter your study ID \(issued.studyId) and the activation code \(issued.code) (capital or small letters, both work).",
                      "Geben Sie Ihre Studien-ID \(issued.studyId) und den Aktivierungscode \(issued.code) ein (Groß- oder Kleinbuchstaben, beides geht)."))</li>
            <li>\(t.s("Do this before \(t.time(issued.expiresAt, zone: zone)); the code works once. If it has expired, ask the study nurse for a new one.",
                      "Tun Sie das vor \(t.time(issued.expiresAt, zone: zone)); der Code funktioniert nur einmal. Ist er abgelaufen, bitten Sie die Studienpflege um einen neuen."))</li>
            <li>\(t.s("Then do the morning and evening checks every day as the app or page shows them.",
                      "Danach machen Sie jeden Tag die Morgen- und Abend-Checks, wie App oder Seite sie zeigen."))</li>
            </ol>
            """
    }

    /// The activation link as a QR code (inline SVG: the CSP blocks `data:` images) and the
    /// clinic's number: printed, this page is the patient's one-page handout (docs/product.md, W;
    /// the print stylesheet drops the navigation and the nurse's notes). The QR exists only here,
    /// where the code does; the server keeps only the code's hash.
    func handout(_ issued: OneTimeCodes.Issued) -> HTML {
        let phone: HTML = clinicPhone.map {
            "<p id=\"handout-phone\">\(t.s("Questions? Call the clinic:", "Fragen? Rufen Sie die Klinik an:")) <a href=\"tel:\(Telephone.dialable($0))\">\($0)</a></p>"
        } ?? HTML()
        guard let activationURL, let qr = try? QRCode(text: activationURL) else {
            return phone + "<p class=\"no-print muted\">\(t.s("With app.publicURL set, this page also shows the activation link as a QR code to scan.", "Mit app.publicURL zeigt diese Seite den Aktivierungslink auch als QR-Code zum Scannen."))</p>"
        }
        let title = t.s("Activation link for \(issued.studyId)", "Aktivierungslink für \(issued.studyId)")
        return """
            <figure class="qr" id="activation-qr">\(qr.svg(moduleSize: 4, quietZone: 4, title: title))
            <figcaption>\(t.s("Scan with the phone's camera: the check-in opens with the study ID and code filled in; then press Activate.",
                               "Mit der Kamera des Telefons scannen: der Check-in öffnet sich mit Studien-ID und Code; dann auf Aktivieren tippen."))
            <br><span class="activation-url" id="activation-url">\(activationURL)</span></figcaption></figure>
            \(phone)
            <p class="no-print muted">\(t.s("Print this page as the patient's handout: the printout leaves out the navigation and the notes for staff.",
                                            "Diese Seite als Merkblatt für den Patienten drucken: der Ausdruck lässt Navigation und Hinweise für das Personal weg."))</p>
            """
    }
}
