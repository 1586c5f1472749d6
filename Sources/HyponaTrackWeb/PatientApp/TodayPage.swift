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
    /// The study ID, the clinic's number and the call promise a yellow or red light carries.
    let box: InstructionBox
    let saved: Bool
    /// "Remind me on this phone" (`PushRegistration.control`); empty without Web Push.
    var remind = HTML()

    var t: AppText { layout.t }
    var lang: String { t.language.rawValue }

    func render() -> HTML {
        let rules = today.rulesSnapshot.rules
        let notice: HTML = saved ? "<p class=\"notice\" role=\"status\">\(t.saved)</p>" : HTML()
        let light: HTML
        if let shown = today.shown {
            // The disclaimer is in the page's footer.
            var body = rules.instructions.body(level: shown.level, reasonCodes: shown.reasonCodes, language: lang,
                                               emergencyNumber: emergencyNumber)
            // The call promise belongs to yellow only: red means "go now", not "wait for a call".
            if shown.level == .yellow, let call = box.callSentence() { body += " " + call }
            let contacts: HTML = shown.level == .yellow || shown.level == .red ? box.contacts() : HTML()
            light = """
                <section class="light light-\(shown.level.rawValue)" id="light" data-level="\(shown.level.rawValue)" aria-labelledby="light-word">\
                <span class="word" id="light-word">\(t.yourLight): \(t.levelWord(shown.level))</span><p id="instructions">\(body)</p>\(contacts)</section>
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
            <a class="call" href="tel:\(Telephone.dialable(emergencyNumber))">\(t.call) \(emergencyNumber)</a></section>
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
        // Plain words: "Day 6 after your operation", the date as the language writes it (POD for staff who ask).
        let day: HTML = """
            <p class="muted" id="day"><abbr title="POD \(today.pod)">\(t.dayAfterOperation(today.pod))</abbr> · <span class="date">\(Vocabulary(language: t.language).writtenDate(today.date))</span></p>
            """
        return layout.page(t.today, "\(notice)\(light)\(emergency)\(day)\(body)\(remind)")
    }
}
