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

    /// The sentence about the clinic's call for a yellow light; nil when no time can be named.
    func callSentence() -> String? { ClinicCallWording.sentence(call, texts: texts, language: t.language) }

    /// The study ID and the numbers to call, below the instruction.
    func contacts() -> HTML {
        let clinic: HTML = clinicPhone.map { phone in
            "<li id=\"clinic-phone\">\(t.clinicPhone): <a href=\"tel:\(Telephone.dialable(phone))\">\(phone)</a></li>"
        } ?? HTML()
        return """
            <ul class="contact" id="contact"><li id="show-study-id">\(t.showStudyId) <strong>\(studyId)</strong></li>\
            \(clinic)<li id="emergency-number">\(t.emergencyNumber): <a href="tel:\(Telephone.dialable(emergencyNumber))">\(emergencyNumber)</a></li></ul>
            """
    }
}
