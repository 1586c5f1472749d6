import Foundation
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/app/`: the light with its instructions, the emergency instruction, today's tasks and
/// reminders, and the two checks.
struct TodayPage {
    let layout: AppLayout
    let today: TodayView
    let zone: ZoneRules
    let emergencyNumber: String
    let saved: Bool

    var t: AppText { layout.t }
    var lang: String { t.language.rawValue }

    func render() -> HTML {
        let rules = today.rulesSnapshot.rules
        let notice: HTML = saved ? "<p class=\"notice\" role=\"status\">\(t.saved)</p>" : HTML()
        let light: HTML
        if let shown = today.shown {
            // The disclaimer is in the page's footer.
            let body = rules.instructions.body(level: shown.level, reasonCodes: shown.reasonCodes, language: lang,
                                               emergencyNumber: emergencyNumber)
            light = """
                <section class="light light-\(shown.level.rawValue)" id="light" data-level="\(shown.level.rawValue)" aria-labelledby="light-word">\
                <span class="word" id="light-word">\(t.yourLight): \(t.levelWord(shown.level))</span><p id="instructions">\(body)</p></section>
                """
        } else {
            // An evaluation without a level: today holds data, none of it read by a rule.
            let (word, text) = today.latest == nil ? (t.levelWord(nil), t.noLight) : (t.notEvaluatedWord, t.notEvaluated)
            light = "<section class=\"light light-none\" id=\"light\" data-level=\"none\"><span class=\"word\">\(word)</span><p>\(text)</p></section>"
        }
        let texts = rules.instructions.webApp
        let emergency: HTML = """
            <section class="emergency" aria-label="\(t.emergency)"><p><strong>\(texts?.callNow(lang, number: emergencyNumber) ?? emergencyNumber)</strong></p>\
            <p>\(rules.thresholds.emergencySymptoms.map { texts?.emergency($0, lang) ?? $0 }.joined(separator: " · "))</p>\
            <a class="call" href="tel:\(emergencyNumber.filter { $0 != " " })">\(t.call) \(emergencyNumber)</a></section>
            """
        let tasks: [HTML] = today.tasks.filter { $0.state != .hidden }.map { s in
            let state: HTML = s.state == .done ? "<span class=\"done\">✓ \(t.done)</span>" : "<span class=\"open\">\(t.open)</span>"
            return "<li data-task=\"\(s.task.rawValue)\">\(t.task(s.task)): \(state)</li>"
        }
        let reminders: [HTML] = today.plan.reminders.map { r in
            "<li>\(r.localTime.description) – \(r.tasks.map(t.task).joined(separator: ", "))</li>"
        }
        let body: HTML = today.monitoringActive ? """
            <div class="actions"><a class="button" href="/app/morning">\(t.morningCheck)</a><a class="button" href="/app/evening">\(t.eveningCheck)</a></div>
            <h2>\(t.tasks)</h2><ul class="tasks" id="tasks">\(tasks)</ul>
            <h2>\(t.reminders)</h2><ul class="tasks" id="reminders">\(reminders)</ul>
            """ : "<p>\(t.monitoringOver)</p>"
        return layout.page(t.today, "\(notice)\(light)\(emergency)<p class=\"muted\">\(today.date.description) · POD \(today.pod)</p>\(body)")
    }
}

/// `/app/activate`: study ID and code, and the choice to use only the web check-in.
struct ActivatePage {
    let layout: AppLayout
    /// The pre-session CSRF token (`SignInFormToken`).
    let formToken: String?
    var studyId = ""
    var webOnly = false
    /// Shown again only when the switch to another study ID is to be confirmed.
    var code = ""
    /// This browser is signed in already, for this study ID: activating another one asks first.
    var signedInAs: String?
    var errors: [String: String] = [:]

    var t: AppText { layout.t }

    func render() -> HTML {
        let checked: HTML = webOnly ? " checked" : HTML()
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
            <div class="field choices"><label for="webOnly"><input type="checkbox" id="webOnly" name="webOnly" value="1"\(checked)>\(t.webOnly)</label></div>
            \(confirm)<button type="submit">\(t.start)</button></form>
            """)
    }
}
