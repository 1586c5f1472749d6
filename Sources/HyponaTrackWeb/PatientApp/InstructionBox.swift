import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// What a yellow or red light adds to its instruction on the web check-in (docs/product.md, W):
/// the study ID to show, the clinic's and the emergency number (each a `tel:` link), and for
/// yellow when the clinic will call (`ClinicCallPromise`, worded by the rules' `clinicCall` texts).
struct InstructionBox {
    let t: AppText
    let studyId: String
    let clinicPhone: String?
    let emergencyNumber: String
    let call: ClinicCallPromise
    let texts: WebAppTexts?

    var lang: String { t.language.rawValue }

    /// The sentence about the clinic's call for a yellow light; nil when no time can be named.
    func callSentence() -> String? {
        guard let texts else { return nil }
        switch call {
        case .unspecified: return nil
        case .callTheClinic: return texts.clinicCall("callClinic", lang)
        case .clinicCalls(.today(let until)): return texts.clinicCall("today", lang, ["until": until.description])
        case .clinicCalls(.laterToday(let from, let until)):
            return texts.clinicCall("laterToday", lang, ["from": from.description, "until": until.description])
        case .clinicCalls(.nextWorkingDay(let day, let from)):
            let weekday = t.weekday(ClinicHours.weekday(day)), date = Vocabulary(language: t.language).date(day)
            let words = t.s("\(weekday) \(date)", "\(weekday), \(date)")
            return texts.clinicCall("nextWorkingDay", lang, ["day": words, "from": from.description])
        }
    }

    /// The study ID and the numbers to call, below the instruction.
    func contacts() -> HTML {
        func dial(_ number: String) -> String { number.filter { $0 != " " } }
        let clinic: HTML = clinicPhone.map { phone in
            "<li id=\"clinic-phone\">\(t.clinicPhone): <a href=\"tel:\(dial(phone))\">\(phone)</a></li>"
        } ?? HTML()
        return """
            <ul class="contact" id="contact"><li id="show-study-id">\(t.showStudyId) <strong>\(studyId)</strong></li>\
            \(clinic)<li id="emergency-number">\(t.emergencyNumber): <a href="tel:\(dial(emergencyNumber))">\(emergencyNumber)</a></li></ul>
            """
    }
}
