import HTJSON
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// An alert e-mail carries nothing a mail client turns into a link: besides `scheme://`, a
/// `www.` name and a bare domain name in a note are broken; numbers, times and one-letter
/// abbreviations keep their dots.
@Suite struct EmailDelinkingTests {
    typealias Fixture = HookTransportTests.Fixture

    static func body(note: String, by: String = "staff:nurse.a") -> String {
        EmailText.render(event: Fixture.alertEvent(id: "evt_delink", type: "alert.resolved", extra: ["by": .string(by), "note": .string(note)]).event,
                         rules: Fixture.rules).body
    }

    @Test func wwwAndBareDomainNamesInANoteAreBrokenWhileNumbersTimesAndAbbreviationsKeepTheirDots() {
        let linkable = "Call back via www.evil.example, evil.example or pay-here.com/x; mail nina@clinic.org; WWW.x"
        let plain = "USG 1.021, weight 12.5 kg at 08:30 (8.30 Uhr), Na 131.5, NaCl i.v. z.B. 0.9 %, e.g. v2.1"
        let text = Self.body(note: linkable + ". " + plain, by: "staff:dr.b")
        #expect(text.contains("Note: Call back via www[.]evil[.]example, evil[.]example or pay-here[.]com/x; mail nina@clinic[.]org; "
                              + "WWW[.]x. \(plain)"), "\(text)")
        for name in ["www.", "evil.example", "pay-here.com", "clinic.org", "WWW.x"] {
            #expect(!text.contains(name), "\(name) in:\n\(text)")
        }
        #expect(text.contains("resolved by dr.b."), "a staff name with an initial stays")
    }

    @Test func aSchemeAndTheNameBehindItAreBothBroken() {
        #expect(Self.body(note: "see https://mail.google.com/x").contains("Note: see https[:]//mail[.]google[.]com/x"))
        #expect(Self.body(note: "full width evil\u{FF0E}example").contains("evil[.]example"), "a dot IDNA reads as one")
    }
}
