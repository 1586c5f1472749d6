import HTML
import HTTPServer
import HyponaTrackDomain
import QRCode

/// "Set up sign-in codes" (`/console/mfa`; docs/product.md, third round, T): a member sets up
/// their own TOTP factor. The otpauth:// URI as a QR code (inline SVG: the CSP forbids `data:`
/// images) and as the secret to type, the recovery codes — each shown once, on the answer to
/// the POST that made them — and the form that confirms with a first code.
struct SecondFactorPage {
    static let path = "/console/mfa"

    let layout: ConsoleLayout
    /// Whether the member's factor is active already.
    var active = false
    /// The factor just set up (only on the POST's answer).
    var enrolment: SecondFactorEnrolment?
    var message: String?

    var t: ConsoleText { layout.t }

    func render() -> HTML {
        let title = t.s("Set up sign-in codes", "Anmeldecodes einrichten")
        guard let session = layout.session else { return layout.page(title, HTML()) }
        if active {
            return layout.page(title, "<p id=\"mfa-active\">\(t.s("Your sign-in codes are active: after the password the console asks for the code from your authenticator app. To move to a new phone, ask an admin to reset them.", "Ihre Anmeldecodes sind aktiv: nach dem Passwort fragt die Konsole nach dem Code aus Ihrer Authenticator-App. Für ein neues Telefon bitte einen Admin, sie zurückzusetzen."))</p>")
        }
        let error: HTML = message.map { "<p class=\"error\" id=\"mfa-error\" role=\"alert\">\($0)</p>" } ?? HTML()
        guard let enrolment else {
            return layout.page(title, """
                <p>\(t.s("A second step after your password: a 6-digit code from an authenticator app on your phone (any app for TOTP codes).", "Ein zweiter Schritt nach dem Passwort: ein 6-stelliger Code aus einer Authenticator-App auf Ihrem Telefon (jede App für TOTP-Codes)."))</p>
                \(error)<form method="post" action="\(Self.path)">\(ConsoleLayout.csrf(session))
                <button type="submit" id="mfa-start">\(t.s("Show the QR code", "QR-Code anzeigen"))</button></form>
                """)
        }
        let qr: HTML = (try? QRCode(text: enrolment.otpauthURI))
            .map { $0.svg(moduleSize: 4, quietZone: 4, title: t.s("Sign-in code QR for your authenticator app", "QR-Code der Anmeldecodes für die Authenticator-App")) } ?? HTML()
        let codes: [HTML] = enrolment.recoveryCodes.map { "<li><code>\($0)</code></li>" }
        return layout.page(title, """
            <ol class="steps">
            <li>\(t.s("Scan this with your authenticator app (shown once):", "Diesen Code mit der Authenticator-App scannen (wird nur einmal gezeigt):"))
            <figure class="qr" id="mfa-qr">\(qr)<figcaption>\(t.s("Or type the key:", "Oder den Schlüssel eintippen:"))
            <code id="mfa-secret">\(enrolment.secret)</code></figcaption></figure></li>
            <li>\(t.s("Write down these recovery codes and keep them apart from the phone; each works once instead of a code:", "Diese Wiederherstellungscodes notieren und getrennt vom Telefon aufbewahren; jeder ersetzt einmal einen Code:"))
            <ul class="recovery-codes" id="mfa-recovery">\(codes)</ul></li>
            <li>\(t.s("Confirm with the code the app shows now:", "Mit dem Code bestätigen, den die App jetzt zeigt:"))
            \(error)<form method="post" action="\(Self.path)/confirmation">\(ConsoleLayout.csrf(session))
            <div class="field"><label for="code">\(t.s("Code", "Code"))</label>
            <input type="text" id="code" name="code" autocomplete="one-time-code" inputmode="numeric" required maxlength="6"></div>
            <button type="submit" id="mfa-confirm">\(t.s("Confirm", "Bestätigen"))</button></form></li>
            </ol>
            """)
    }
}

extension Console {
    func secondFactorPage(_ ctx: PageContext) throws -> HTTPResponse {
        let active = try secondFactor.hasActiveFactor(name: ctx.session?.name ?? "")
        return WebResponse.page(.ok, SecondFactorPage(layout: layout(ctx), active: active).render())
    }

    func setUpSecondFactor(_ ctx: PageContext) throws -> HTTPResponse {
        guard let session = ctx.session else { throw PageFailure.notFound(ctx.request.http.path, ctx.language) }
        do {
            let enrolment = try secondFactor.setUp(name: session.name, actor: session.actor)
            return WebResponse.page(.ok, SecondFactorPage(layout: layout(ctx), enrolment: enrolment).render())
        } catch DomainError.conflict {
            return WebResponse.page(.conflict, SecondFactorPage(layout: layout(ctx), active: true).render())
        }
    }

    func confirmSecondFactor(_ ctx: PageContext) throws -> HTTPResponse {
        guard let session = ctx.session else { throw PageFailure.notFound(ctx.request.http.path, ctx.language) }
        let t = ConsoleText(ctx.language)
        do {
            try secondFactor.confirm(name: session.name, code: ctx.field("code") ?? "", actor: session.actor)
            return WebResponse.redirect(Self.prefix)
        } catch DomainError.rejected {
            // The QR is not shown again (the secret exists in plain text only on the page that
            // set it up): a wrong first code starts over with a new one.
            let page = SecondFactorPage(layout: layout(ctx), message: t.s("The code was not right. Start again: the app needs the new QR code.", "Der Code stimmte nicht. Bitte neu beginnen: die App braucht den neuen QR-Code."))
            return WebResponse.page(.badRequest, page.render())
        }
    }
}
