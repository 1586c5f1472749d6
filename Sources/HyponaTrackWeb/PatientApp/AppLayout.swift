import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// The web check-in's page frame: mobile-first, the manifest, the language switch, the
/// disclaimer from the rules.
struct AppLayout {
    let request: WebRequest
    let patient: PatientWebSession?
    let disclaimer: String

    var t: AppText { AppText(request.language) }

    func page(_ title: String, _ content: HTML) -> HTML {
        let other: Language = request.language == .de ? .en : .de
        let back = request.http.rawPath
        let signOut: HTML = patient.map { p in
            "<form method=\"post\" action=\"/app/signout\">\(Self.csrf(p))<button type=\"submit\" class=\"secondary\">\(t.signOut)</button></form>"
        } ?? HTML()
        // Whose check-in this is, on every signed-in page: a browser signed in for another study
        // ID would otherwise file the patient's checks under it without anyone seeing.
        let who: HTML = patient.map { p in "<span class=\"who\" id=\"study-id\">\(t.studyIdLine(p.studyId))</span>" } ?? HTML()
        return """
            <!DOCTYPE html>
            <html lang="\(request.language.rawValue)"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><meta name="theme-color" content="#0b4f9c">
            <title>\(title) · \(t.title)</title><link rel="manifest" href="/app/manifest.webmanifest">
            <link rel="icon" href="/app/icon.svg" type="image/svg+xml"><link rel="stylesheet" href="\(AppAssets.cssPath)"></head>
            <body><a class="skip" href="#main">\(t.skip)</a>
            <header><strong>\(t.title)</strong>\(who)<a href="/app/language?to=\(other.rawValue)&amp;back=\(URLComponentEncoding.queryValue(back))" lang="\(other.rawValue)" hreflang="\(other.rawValue)">\(t.languageSwitch)</a></header>
            <main id="main"><h1>\(title)</h1>
            \(content)
            </main>
            <footer><p>\(disclaimer)</p>\(signOut)</footer>
            </body></html>
            """
    }

    static func csrf(_ p: PatientWebSession) -> HTML { CSRFField.html(p.csrfToken) }

    /// An input's error message, next to it, and the attributes that tie the two together.
    static func error(_ errors: [String: String], _ field: String) -> HTML {
        errors[field].map { "<p class=\"error\" id=\"\(field)-error\">\($0)</p>" } ?? HTML()
    }

    static func invalid(_ errors: [String: String], _ field: String) -> HTML {
        errors[field] != nil ? " aria-invalid=\"true\" aria-describedby=\"\(field)-error\"" : HTML()
    }
}
