import HTJSON
import Testing
@testable import HyponaTrackDomain

/// The APNs body is written member by member on the hot path (one per push); its `Encodable`
/// conformance stays the definition, and these hold the two to the same bytes.
@Suite struct APNsPayloadTests {
    static func payload(body: String, kind: String = "check", slot: String = "morning") -> APNsTransport.Payload {
        .init(aps: .init(alert: .init(title: PushMessage.title, body: body)), kind: kind, date: "2026-03-29", slot: slot)
    }

    @Test(arguments: ["Guten Morgen – bitte die Morgenkontrolle.", "Time for your \"evening\" check\n\\ now", "", "Ünïcødé ✓ 🩺"])
    func handWrittenTextIsTheEncodableText(body: String) throws {
        let p = Self.payload(body: body, kind: "urine_sg", slot: "evening")
        #expect(String(decoding: p.text, as: UTF8.self) == (try JSONTextEncoder.string(p)))
    }

    @Test func theTextIsTheContractsShape() throws {
        let text = String(decoding: Self.payload(body: "Hallo").text, as: UTF8.self)
        #expect(text == #"{"aps":{"alert":{"title":"HyponaTrack","body":"Hallo"},"sound":"default"},"kind":"check","date":"2026-03-29","slot":"morning"}"#)
    }

    @Test func aSuccessfulAnswerWithoutABodyHasNoReason() {
        #expect(APNsTransport.reason([]) == nil)
        #expect(APNsTransport.reason(Array(#"{"reason":"BadDeviceToken"}"#.utf8)) == "BadDeviceToken")
    }
}
