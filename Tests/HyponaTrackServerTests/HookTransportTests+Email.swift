import Foundation
import HTJSON
import HyponaTrackCore
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// E-mail hooks over TLS to `scripts/smtp-receiver`, and the wording a nurse reads.
extension HookTransportTests {
    // MARK: - E-mail

    @Suite struct Email {
        @Test func smtpsDeliversAMessageANurseCanActOnWithoutLinks() throws {
            let server = try SMTPReceiver(tls: "implicit", user: "hooks", password: "s3cret-pass")
            let (event, body) = Fixture.alertEvent(id: "evt_mail")
            let transport = server.transport(scheme: "smtps", username: "hooks", password: "s3cret-pass")
            #expect(transport.deliver(eventId: "evt_mail", timestamp: Fixture.now(), body: body, event: event) == .delivered)
            let mail = try server.message(1)
            #expect(mail["tls"] == .string("implicit"))
            #expect(mail["authUser"] == .string("hooks"))
            #expect(mail["mailFrom"] == .string("hyponatrack@hospital.example"))
            #expect(mail["rcptTo"] == .array([.string("ward7@hospital.example"), .string("oncall@hospital.example")]))
            #expect(mail["subject"] == .string("[HyponaTrack] RED alert HT-001 (POD 7): confusion, low lab sodium"))
            #expect(mail["contentType"] == .string("text/plain"))
            #expect(mail["bareLineFeeds"] == .number(0))
            if case .number(let longest)? = mail["lineLengthMax"] { #expect(longest <= 78) }
            guard case .string(let text)? = mail["body"] else { Issue.record("no text body: \(mail)"); return }
            for expected in ["A RED alert was raised for patient HT-001.", "RED — present to the emergency department now", "New confusion",
                             "Sodium 129 mmol/L (red at ≤ 130)", "POD 7, 2026-03-09", "#42", "escalation tier 0", "hyponatrack ack 42"] {
                #expect(text.contains(expected), "missing \(expected) in:\n\(text)")
            }
            for forbidden in ["http://", "https://", "www.", "token", "s3cret-pass"] {
                #expect(!text.lowercased().contains(forbidden), "\(forbidden) in:\n\(text)")
            }
            guard case .object(let headers)? = mail["headers"] else { Issue.record("no headers"); return }
            #expect(headers["Auto-Submitted"] == .string("auto-generated"))
            #expect(headers["MIME-Version"] == .string("1.0"))
            if case .string(let id)? = headers["Message-ID"] { #expect(id.hasSuffix("@hospital.example>")) }
            if case .string(let date)? = headers["Date"] { #expect(date.hasSuffix("+0000")) }
        }

        @Test func starttlsIsUsedOnPlainSMTPURLs() throws {
            let server = try SMTPReceiver(tls: "starttls")
            let (event, body) = Fixture.alertEvent(id: "evt_starttls", type: "alert.acknowledged",
                                                   extra: ["by": "staff:nurse.a", "note": "Reached patient; see https://evil.example now"])
            let transport = server.transport(scheme: "smtp", username: nil, password: nil)
            #expect(transport.deliver(eventId: "evt_starttls", timestamp: Fixture.now(), body: body, event: event) == .delivered)
            let mail = try server.message(1)
            #expect(mail["tls"] == .string("starttls"))
            #expect(mail["subject"] == .string("[HyponaTrack] Acknowledged: RED alert HT-001 (POD 7) by nurse.a"))
            guard case .string(let text)? = mail["body"] else { Issue.record("no text body"); return }
            #expect(text.contains("acknowledged by nurse.a") && !text.contains("staff:") && text.contains("Reached patient"))
            #expect(!text.contains("https://"))
        }

        @Test func plaintextOnlyServerIsRefusedBecauseTLSIsRequired() throws {
            let server = try SMTPReceiver(tls: "none")
            let (event, body) = Fixture.alertEvent(id: "evt_plain")
            let result = server.transport(scheme: "smtp", username: "hooks", password: "s3cret-pass")
                .deliver(eventId: "evt_plain", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, nil) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("TLS"))
            #expect(!reason.contains("s3cret-pass"))
            #expect(try server.messageCount() == 0)
        }

        @Test func refusedLoginIsRetriedWithoutRevealingThePassword() throws {
            let server = try SMTPReceiver(tls: "implicit", user: "hooks", password: "s3cret-pass")
            let (event, body) = Fixture.alertEvent(id: "evt_login")
            let result = server.transport(scheme: "smtps", username: "hooks", password: "wrong-password-42")
                .deliver(eventId: "evt_login", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, nil) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(!reason.contains("wrong-password-42"))
            #expect(try server.messageCount() == 0)
        }

        @Test(arguments: [("implicit", "smtps"), ("starttls", "smtp")])
        func untrustedCertificateIsRefused(mode: String, scheme: String) throws {
            let server = try SMTPReceiver(tls: mode)
            let (event, body) = Fixture.alertEvent(id: "evt_untrusted")
            let transport = EmailTransport(smtpURL: "\(scheme)://127.0.0.1:\(server.peer.port)", from: "hyponatrack@hospital.example",
                                           to: ["ward7@hospital.example"], username: nil, password: nil, caFile: nil,
                                           rules: { Fixture.rules })
            let result = transport.deliver(eventId: "evt_untrusted", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, nil) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("TLS failure"))
            #expect(try server.messageCount() == 0)
        }

        @Test func invalidAddressFailsPermanently() {
            let transport = EmailTransport(smtpURL: "smtps://127.0.0.1:1", from: "hyponatrack@hospital.example",
                                           to: ["ward7@hospital.example>\r\nRCPT TO:<x@evil.example"], username: nil,
                                           password: nil, caFile: nil, rules: { Fixture.rules })
            let (event, body) = Fixture.alertEvent(id: "evt_inject")
            guard case .failed = transport.deliver(eventId: "evt_inject", timestamp: Fixture.now(), body: body, event: event) else {
                Issue.record("an address with CR/LF must be refused before anything is sent"); return
            }
        }
    }

    // MARK: - E-mail wording and format

    @Suite struct EmailWording {
        @Test func everyReasonCodeHasWords() {
            let codes = ReasonCode.allCases.map(\.rawValue) + ["missing_checkin", "no_data_2d"]
            for code in codes {
                let phrase = AlertWording.phrase(for: code, rules: Fixture.rules)
                #expect(phrase.short != code || !code.contains("_"), "no short words for \(code)")
                #expect(phrase.long != code || !code.contains("_"), "no words for \(code)")
            }
            #expect(AlertWording.phrase(for: "weight_gain_pct", rules: Fixture.rules).long == "weight gain vs baseline")
            #expect(AlertWording.phrase(for: "sodium_low", rules: Fixture.rules).long == "low lab sodium")
            #expect(AlertWording.phrase(for: "confusion", rules: Fixture.rules).long == "new confusion")
            #expect(AlertWording.phrase(for: "missing_checkin", rules: Fixture.rules).long == "no morning or evening check by the evening deadline")
            #expect(AlertWording.phrase(for: "no_data_2d", rules: Fixture.rules).long == "no data from the patient for 2 days")
        }

        @Test func theEmailSaysEachReasonInClinicalWordsAndSodiumAsSodium() {
            let (event, _) = Fixture.alertEvent(id: "evt_words", reasons: [
                ["code": "sodium_low", "level": "red", "value": 11, "threshold": 11],
                ["code": "weight_gain_pct", "level": "yellow", "value": 2.375, "threshold": 1.08],
                ["code": "urine_sg_support", "level": "info", "value": 1.022, "threshold": 1.0172],
            ])
            let body = EmailText.render(event: event, rules: Fixture.rules).body
            for line in ["Sodium 129 mmol/L (red at ≤ 129)", "Weight +2.4 % above baseline (yellow from +1.1 %)",
                         "Urine SG 1.022 (supports from 1.018) [information only]"] {
                #expect(body.contains(line), "missing \(line) in:\n\(body)")
            }
            #expect(!body.contains("below normal") && !body.contains(" 11 "), "never the deficit: \(body)")
            #expect(AlertWording.number(7.2000000001) == "7.2" && AlertWording.number(-3) == "-3" && AlertWording.number(0.004) == "0")
        }

        @Test func missingDataAndYellowAlertsReadNaturally() {
            let (event, _) = Fixture.alertEvent(id: "evt_md", level: "yellow", kind: "missing_checkin",
                                                reasons: [["code": "missing_checkin", "level": "yellow", "value": nil, "threshold": nil]])
            let text = EmailText.render(event: event, rules: Fixture.rules)
            #expect(text.subject == "[HyponaTrack] YELLOW alert HT-001 (POD 7): missed check-ins")
            #expect(text.body.contains("YELLOW — call the patient back today"))
            #expect(text.body.contains("no morning or evening check by the evening deadline"))
        }

        /// The silent days of `no_data_2d` and the list of emergency symptoms are the rules' (docs/clinical-rules.md
        /// §4, §8), so a site that changes them gets mails that say what its alerts mean.
        @Test func missingDataAndEmergencySymptomAlertsNameWhatTheRulesInForceSay() {
            var rules = Fixture.rules
            rules.reminders.noDataDays = 3
            rules.thresholds.emergencySymptoms = ["seizure", "syncope"]
            let (silent, _) = Fixture.alertEvent(id: "evt_nd", kind: "no_data_2d",
                                                 reasons: [["code": "no_data_2d", "level": "red", "value": nil, "threshold": nil]])
            let mail = EmailText.render(event: silent, rules: rules)
            #expect(mail.subject == "[HyponaTrack] RED alert HT-001 (POD 7): no data for 3 days")
            #expect(mail.body.contains("  - no data from the patient for 3 days [red]") && mail.body.contains("#42 (no data for 3 days)"),
                    "\(mail.body)")
            #expect(!mail.body.contains("two days") && !mail.body.contains("2 days"))

            let (emergency, _) = Fixture.alertEvent(id: "evt_es", reasons: [["code": "emergency_symptom", "level": "red", "value": 1, "threshold": 1]])
            let text = EmailText.render(event: emergency, rules: rules).body
            #expect(text.contains("  - Emergency symptom reported (red) — one of seizure or syncope; the patient was told to call"),
                    "\(text)")
            #expect(!text.contains("drowsiness"))
        }

        @Test func escalatedResolvedSyncAndReminderEventsHaveTheirOwnText() {
            let escalated = EmailText.render(event: Fixture.alertEvent(id: "e1", type: "alert.escalated", tier: 1).event, rules: Fixture.rules)
            #expect(escalated.subject == "[HyponaTrack] ESCALATION tier 1: RED alert HT-001 (POD 7) not acknowledged: confusion, low lab sodium")
            let resolved = EmailText.render(event: Fixture.alertEvent(id: "e2", type: "alert.resolved",
                                                                      extra: ["by": "staff:dr.b", "note": "Na rechecked", "sodium": 131]).event,
                                           rules: Fixture.rules)
            #expect(resolved.subject == "[HyponaTrack] Resolved: RED alert HT-001 (POD 7) by dr.b")
            #expect(resolved.body.contains("Measured sodium: 131 mmol/L") && resolved.body.contains("Note: Na rechecked"))

            let halted = EmailText.render(event: ["type": "sync.halted", "id": "e3", "timestamp": "2026-03-09T08:00:00Z",
                                                  "data": ["reason": "REDCap refused the API token (403)"]], rules: Fixture.rules)
            #expect(halted.subject == "[HyponaTrack] REDCap sync HALTED: REDCap refused the API token (403)")
            #expect(halted.body.contains("hyponatrack sync resume"))
            let unhealthy = EmailText.render(event: ["type": "sync.unhealthy", "id": "e4", "timestamp": "2026-03-09T08:00:00Z",
                                                     "data": ["oldestPendingSeconds": 7500, "pending": 12, "lastFailure": nil]], rules: Fixture.rules)
            #expect(unhealthy.subject == "[HyponaTrack] REDCap sync unhealthy: 12 rows waiting for 2 h 5 min")
            let reminder = EmailText.render(event: ["type": "reminder.due", "id": "e5", "timestamp": "2026-03-09T07:00:00Z",
                                                    "data": ["studyId": "HT-002", "date": "2026-03-09", "pod": 5, "kind": "missed",
                                                             "at": "2026-03-09T10:00:00Z", "intensity": "elevated",
                                                             "tasks": ["weight_morning", "urine_sg"]]], rules: Fixture.rules)
            #expect(reminder.subject == "[HyponaTrack] Reminder due for HT-002: morning weight, urine specific gravity")
            #expect(reminder.body.contains("missed-deadline reminder"))
        }

        @Test func messageIsSevenBitCRLFWithShortLinesAndEncodedSubject() throws {
            let message = EmailMessage(from: "a@hospital.example", to: ["b@hospital.example"], subject: "Rückruf — HT-001",
                                       body: "Zeile mit Umlaut ä\n.starts with a dot\nFrom here\n" + String(repeating: "long ", count: 40) + " \n",
                                       date: 1_773_043_200, messageId: "x@hospital.example")
            let bytes = message.bytes
            #expect(bytes.allSatisfy { $0 < 0x80 })
            let text = String(decoding: bytes, as: UTF8.self)
            let lines = text.components(separatedBy: "\r\n")
            #expect(!lines.contains { $0.contains("\n") || $0.contains("\r") })
            #expect(lines.allSatisfy { $0.count <= 78 })
            #expect(text.contains("Date: Mon, 09 Mar 2026 08:00:00 +0000\r\n"))
            #expect(text.contains("Subject: =?UTF-8?B?"))
            #expect(text.contains("\r\n=2Estarts with a dot\r\n") && text.contains("\r\n=46rom here\r\n"))
            #expect(text.contains("Zeile mit Umlaut =C3=A4\r\n"))
            #expect(text.contains("=20\r\n"))   // a trailing space survives as =20
        }
    }
}
