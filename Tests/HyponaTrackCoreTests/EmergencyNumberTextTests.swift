import HTJSON
import Testing
@testable import HyponaTrackCore

struct EmergencyNumberTextTests {
    @Test(arguments: [
        ("Call {emergencyNumber} now.", "Call 112 now."),
        ("{emergencyNumber}", "112"),
        ("{emergencyNumber}{emergencyNumber}", "112112"),
        ("Rufen Sie {emergencyNumber} an; über {emergencyNumber} erreichbar.", "Rufen Sie 112 an; über 112 erreichbar."),
        ("No placeholder at all.", "No placeholder at all."),
        ("", ""),
        ("A brace { alone, then {emergencyNumber}", "A brace { alone, then 112"),
        ("{emergencyNumbe", "{emergencyNumbe"),
        ("Ünïcödé 👩‍⚕️{emergencyNumber}👩‍⚕️", "Ünïcödé 👩‍⚕️112👩‍⚕️"),
    ])
    func everyPlaceholderIsFilledAndNothingElseChanges(template: String, expected: String) {
        #expect(EmergencyNumberText.fill(template, number: "112") == expected)
    }

    @Test func aNumberThatLooksLikeThePlaceholderIsNotFilledAgain() {
        #expect(EmergencyNumberText.fill("{emergencyNumber}!", number: "{emergencyNumber}") == "{emergencyNumber}!")
    }

    @Test func validationStillFindsAMisspeltPlaceholder() {
        #expect(throws: FieldError.self) {
            try EmergencyNumberText.validate("Call {emergencynumber}", "x", required: false)
        }
        #expect(throws: FieldError.self) {
            try EmergencyNumberText.validate("Call 112", "x", required: true)
        }
        #expect(throws: Never.self) {
            try EmergencyNumberText.validate("Call {emergencyNumber}", "x", required: true)
        }
    }
}
