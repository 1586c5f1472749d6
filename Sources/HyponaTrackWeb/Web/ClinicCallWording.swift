import HyponaTrackCore
import HyponaTrackDomain

/// What a yellow light says about the clinic's call (docs/product.md, W), in the patient's
/// language, from the rules' `webApp.clinicCall` texts: the same sentence on the web check-in and
/// in the API's instructions (the app shows `instructions.text`).
enum ClinicCallWording {
    /// The sentence for `promise`; nil when no time can be named (`.unspecified`) or the rules
    /// have no `webApp` texts.
    static func sentence(_ promise: ClinicCallPromise, texts: WebAppTexts?, language: Language) -> String? {
        guard let texts else { return nil }
        let lang = language.rawValue
        switch promise {
        case .unspecified: return nil
        case .callTheClinic: return texts.clinicCall("callClinic", lang)
        case .clinicCalls(.today(let until)): return texts.clinicCall("today", lang, ["until": until.description])
        case .clinicCalls(.laterToday(let from, let until)):
            return texts.clinicCall("laterToday", lang, ["from": from.description, "until": until.description])
        case .clinicCalls(.nextWorkingDay(let day, let from)):
            let v = Vocabulary(language: language)
            let weekday = v.weekday(ClinicHours.weekday(day)), date = v.date(day)
            return texts.clinicCall("nextWorkingDay", lang, ["day": v.s("\(weekday) \(date)", "\(weekday), \(date)"), "from": from.description])
        }
    }
}
