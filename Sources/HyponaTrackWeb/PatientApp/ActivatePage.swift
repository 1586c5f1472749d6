import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/app/activate`: study ID and code (pre-filled from the activation link's `study` and `code`:
/// a GET only shows the form, so a link preview never uses the code up; the patient's POST
/// activates), and whether the patient also uses the app. Unticked, the patient is web-only
/// (the last activation decides `webOnly`).
struct ActivatePage {
    let layout: AppLayout
    /// The pre-session CSRF token (`SignInFormToken`).
    let formToken: String?
    var studyId = ""
    var alsoApp = false
    /// From the link, or shown again when the switch to another study ID is to be confirmed.
    var code = ""
    /// This browser is signed in already, for this study ID: activating another one asks first.
    var signedInAs: String?
    var errors: [String: String] = [:]

    var t: AppText { layout.t }

    func render() -> HTML {
        let checked: HTML = alsoApp ? " checked" : HTML()
        // The confirmation a switch needs: the box, its question, and the problem beside it.
        let confirm: HTML = signedInAs.map { current in
            """
            <div class="field choices"><p class="notice warn" id="switch-notice">\(t.signedInAs(current))</p>
            <label for="switch"><input type="checkbox" id="switch" name="switch" value="1"\(AppLayout.invalid(errors, "switch"))>\(t.confirmSwitch(from: current))</label>\(AppLayout.error(errors, "switch"))</div>
            """
        } ?? HTML()
        return layout.page(t.activate, """
            <form method="post" action="/app/activate" novalidate>\(CSRFField.html(formToken))
            <div class="field"><label for="studyId">\(t.studyId)</label>
            <input type="text" id="studyId" name="studyId" autocomplete="username" autocapitalize="characters" required value="\(studyId)"\(AppLayout.invalid(errors, "studyId"))>\(AppLayout.error(errors, "studyId"))</div>
            <div class="field"><label for="code">\(t.code)</label>
            <input type="text" id="code" name="code" autocomplete="one-time-code" autocapitalize="characters" required value="\(code)"\(AppLayout.invalid(errors, "code"))>\(AppLayout.error(errors, "code"))</div>
            <div class="field choices"><label for="alsoApp"><input type="checkbox" id="alsoApp" name="alsoApp" value="1" aria-describedby="alsoApp-hint"\(checked)>\(t.alsoApp)</label>
            <p class="muted hint" id="alsoApp-hint">\(t.alsoAppHint)</p></div>
            \(confirm)<button type="submit">\(t.start)</button></form>
            """)
    }
}
