import Foundation
import HTJSON
import HyponaTrackCore
import Testing
@testable import HyponaTrackServer

/// The three hook transports against real peers: `scripts/webhook-receiver` (an independent
/// Standard Webhooks verifier), real executables, and `scripts/smtp-receiver` over TLS. Each
/// test starts its own peers in its own temporary directory.
@Suite struct HookTransportTests {
    // MARK: - Webhooks

    @Suite struct Webhook {
        @Test func signedDeliveryVerifiesAtAnIndependentReceiver() throws {
            let receiver = try WebhookReceiver()
            let (event, body) = Fixture.alertEvent(id: "evt_signed")
            let result = receiver.transport().deliver(eventId: "evt_signed", timestamp: Fixture.now(), body: body, event: event)
            #expect(result == .delivered)
            let deliveries = try receiver.deliveries()
            #expect(deliveries.count == 1)
            let d = try #require(deliveries.first)
            #expect(d["verified"] == .bool(true), "receiver said: \(String(describing: d["error"]))")
            #expect(d["id"] == .string("evt_signed"))
            #expect(d["type"] == .string("alert.opened"))
            #expect(d["body"] == .string(String(decoding: body, as: UTF8.self)))
            #expect(d["path"] == .string("/hooks/ward"))
        }

        @Test func serverErrorIsRetriedWithTheSameWebhookId() throws {
            let receiver = try WebhookReceiver()
            try receiver.arm(["status": 500, "count": 1])
            let (event, body) = Fixture.alertEvent(id: "evt_retry")
            let first = receiver.transport().deliver(eventId: "evt_retry", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, let after) = first else { Issue.record("expected retry, got \(first)"); return }
            #expect(reason.contains("HTTP 500") && after == nil)
            let second = receiver.transport().deliver(eventId: "evt_retry", timestamp: Fixture.now() + 1, body: body, event: event)
            #expect(second == .delivered)
            let deliveries = try receiver.deliveries()
            #expect(deliveries.map { $0["id"] } == [.string("evt_retry"), .string("evt_retry")])
            #expect(deliveries.map { $0["answered"] } == [.number(500), .number(200)])
            #expect(deliveries.allSatisfy { $0["verified"] == .bool(true) })
        }

        @Test func goneMeansDisableTheEndpoint() throws {
            let receiver = try WebhookReceiver()
            try receiver.arm(["status": 410])
            let (event, body) = Fixture.alertEvent(id: "evt_gone")
            let result = receiver.transport().deliver(eventId: "evt_gone", timestamp: Fixture.now(), body: body, event: event)
            guard case .gone = result else { Issue.record("expected gone, got \(result)"); return }
        }

        @Test func retryAfterIsHonouredAsSecondsAndAsHTTPDate() throws {
            let receiver = try WebhookReceiver()
            let (event, body) = Fixture.alertEvent(id: "evt_later")
            try receiver.arm(["status": 503, "count": 1, "retryAfter": 120])
            let seconds = receiver.transport().deliver(eventId: "evt_later", timestamp: Fixture.now(), body: body, event: event)
            #expect(seconds == .retry(reason: "HTTP 503: {\"error\": \"armed status 503\"}", afterSeconds: 120))

            let now = Fixture.now()
            try receiver.arm(["status": 429, "count": 1, "retryAfter": .string(Fixture.httpDate(now + 90))])
            let date = receiver.transport().deliver(eventId: "evt_later", timestamp: now, body: body, event: event)
            guard case .retry(let reason, let after) = date else { Issue.record("expected retry, got \(date)"); return }
            #expect(reason.hasPrefix("HTTP 429") && after == 90)
        }

        @Test func redirectIsARetryAndIsNeverFollowed() throws {
            let receiver = try WebhookReceiver()
            try receiver.arm(["status": 302])
            let (event, body) = Fixture.alertEvent(id: "evt_moved")
            let result = receiver.transport().deliver(eventId: "evt_moved", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, _) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("302") && reason.contains("redirect"))
            let deliveries = try receiver.deliveries()
            #expect(deliveries.count == 1)
            #expect(!deliveries.contains { $0["path"] == .string("/_redirected") })
        }

        @Test func staleTimestampIsRejectedByTheReceiverAndRetried() throws {
            let receiver = try WebhookReceiver()
            let (event, body) = Fixture.alertEvent(id: "evt_stale")
            let result = receiver.transport().deliver(eventId: "evt_stale", timestamp: Fixture.now() - 600, body: body, event: event)
            guard case .retry(let reason, _) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.hasPrefix("HTTP 400"))
            #expect(try receiver.deliveries().first?["error"] == .string("timestamp too old"))
        }

        @Test func wrongSecretIsRejectedByTheReceiver() throws {
            let receiver = try WebhookReceiver()
            let (event, body) = Fixture.alertEvent(id: "evt_wrongkey")
            let transport = WebhookTransport(url: receiver.url, secret: [UInt8](repeating: 1, count: 32), caFile: nil)
            let result = transport.deliver(eventId: "evt_wrongkey", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, _) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.hasPrefix("HTTP 401"))
            #expect(try receiver.deliveries().first?["verified"] == .bool(false))
        }

        @Test func httpsWithAPrivateCADeliversAndAnUntrustedCertificateIsRetried() throws {
            let receiver = try WebhookReceiver(tls: true)
            let caFile = try #require(receiver.peer.caFile)
            let (event, body) = Fixture.alertEvent(id: "evt_tls")
            let trusted = receiver.transport(caFile: caFile)
            #expect(trusted.deliver(eventId: "evt_tls", timestamp: Fixture.now(), body: body, event: event) == .delivered)
            #expect(try receiver.deliveries().first?["verified"] == .bool(true))

            let untrusted = receiver.transport(caFile: nil)
            let result = untrusted.deliver(eventId: "evt_tls", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, _) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("TLS"))
            #expect(try receiver.deliveries().count == 1)
        }

        @Test func httpsIsRequiredExceptForLoopback() {
            #expect(WebhookTransport.validateURL("https://hooks.example.org/ward") == nil)
            #expect(WebhookTransport.validateURL("HTTPS://hooks.example.org:8443/x?y=1") == nil)
            #expect(WebhookTransport.validateURL("http://127.0.0.1:8080/hook") == nil)
            #expect(WebhookTransport.validateURL("http://localhost/hook") == nil)
            #expect(WebhookTransport.validateURL("http://[::1]:9000/hook") == nil)
            #expect(WebhookTransport.validateURL("http://hooks.example.org/ward") != nil)
            #expect(WebhookTransport.validateURL("http://127.0.0.1.example.org/") != nil)
            #expect(WebhookTransport.validateURL("http://10.0.0.5/hook") != nil)
            #expect(WebhookTransport.validateURL("ftp://hooks.example.org/") != nil)
            #expect(WebhookTransport.validateURL("https://user:pw@hooks.example.org/") != nil)
            #expect(WebhookTransport.validateURL("https:///nohost") != nil)
            #expect(WebhookTransport.validateURL("https://hooks.example.org:99999/") != nil)
            #expect(WebhookTransport.validateURL("https://hooks.example.org/a b") != nil)

            let (event, body) = Fixture.alertEvent(id: "evt_plain")
            let plain = WebhookTransport(url: "http://hooks.example.org/ward", secret: [UInt8](repeating: 1, count: 32), caFile: nil)
            guard case .failed(let reason) = plain.deliver(eventId: "evt_plain", timestamp: Fixture.now(), body: body, event: event) else {
                Issue.record("plain http to a remote host must fail permanently"); return
            }
            #expect(reason.contains("https"))
        }

        @Test func unreachableReceiverIsRetried() throws {
            let port: Int
            do {
                let receiver = try WebhookReceiver()
                port = receiver.peer.port
            } // stopped here: nothing listens on the port any more
            let (event, body) = Fixture.alertEvent(id: "evt_down")
            let transport = WebhookTransport(url: "http://127.0.0.1:\(port)/hooks/ward", secret: [UInt8](repeating: 1, count: 32),
                                             caFile: nil)
            let result = transport.deliver(eventId: "evt_down", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, nil) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("could not connect"))
        }
    }

    // MARK: - Retry-After parsing

    @Suite struct RetryAfterParsing {
        @Test func deltaSecondsAndAllThreeHTTPDateForms() {
            let now = RetryAfter.daysFromCivil(year: 1994, month: 11, day: 6) * 86_400 + 8 * 3600 + 49 * 60 + 7
            #expect(RetryAfter.seconds("120", now: now) == 120)
            #expect(RetryAfter.seconds(" 0 ", now: now) == 0)
            #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 30)
            #expect(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 30)
            #expect(RetryAfter.seconds("Sun Nov  6 08:49:37 1994", now: now) == 30)
            #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)   // past: now
            #expect(RetryAfter.seconds("-5", now: now) == nil)
            #expect(RetryAfter.seconds("soon", now: now) == nil)
            #expect(RetryAfter.seconds("Sun, 06 Foo 1994 08:49:37 GMT", now: now) == nil)
            #expect(RetryAfter.httpDate("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        }
    }

    // MARK: - Commands

    @Suite struct Command {
        @Test func commandReceivesTheEventOnStdinWithAMinimalEnvironment() throws {
            let dir = try TemporaryDirectory()
            let script = try dir.script("hook", """
                #!/bin/sh
                cat > "$1"
                printf '%s %s' "$HYPONATRACK_EVENT_ID" "$HYPONATRACK_EVENT_TYPE" > "$2"
                env > "$3"
                """)
            let (event, body) = Fixture.alertEvent(id: "evt_stdin")
            let transport = CommandTransport(path: script, args: [dir.path("stdin"), dir.path("ids"), dir.path("env")],
                                             timeout: .seconds(20))
            #expect(transport.deliver(eventId: "evt_stdin", timestamp: Fixture.now(), body: body, event: event) == .delivered)
            #expect(try dir.bytes("stdin") == body)
            #expect(try dir.text("ids") == "evt_stdin alert.opened")
            let names = Set(try dir.text("env").split(separator: "\n").compactMap { $0.split(separator: "=").first.map(String.init) })
            let allowed: Set = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "USER", "LOGNAME",
                                "HYPONATRACK_EVENT_ID", "HYPONATRACK_EVENT_TYPE", "PWD", "SHLVL", "_", "OLDPWD"]
            #expect(names.subtracting(allowed).isEmpty, "unexpected variables: \(names.subtracting(allowed))")
        }

        @Test func shippedExampleScriptLogsAOneLineSummary() throws {
            let dir = try TemporaryDirectory()
            let script = ScriptPeer.scripts + "/examples/page-oncall"
            let (event, body) = Fixture.alertEvent(id: "evt_example")
            let transport = CommandTransport(path: script, args: ["--log", dir.path("pages.log")], timeout: .seconds(20))
            #expect(transport.deliver(eventId: "evt_example", timestamp: Fixture.now(), body: body, event: event) == .delivered)
            #expect(try dir.text("pages.log")
                    == "2026-03-09T08:00:00.000Z alert.opened HT-001 RED POD 7 alert 42 tier 0 reasons: confusion,sodium_low\n")
        }

        @Test func nonZeroExitIsRetriedWithTheStatusAndStderr() throws {
            let dir = try TemporaryDirectory()
            let script = try dir.script("fail", """
                #!/bin/sh
                cat > /dev/null
                echo "starting" >&2
                echo "pager gateway unreachable" >&2
                exit 3
                """)
            let (event, body) = Fixture.alertEvent(id: "evt_exit")
            let result = CommandTransport(path: script).deliver(eventId: "evt_exit", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, nil) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("exited with status 3"))
            #expect(reason.hasSuffix(": starting | pager gateway unreachable"))
        }

        @Test func timeoutKillsTheCommandAndWhatItStarted() throws {
            let dir = try TemporaryDirectory()
            // Ignores SIGTERM, so only the SIGKILL after the grace period ends it.
            let script = try dir.script("hang", """
                #!/bin/sh
                trap '' TERM
                echo $$ > "$1"
                sleep 30 &
                echo $! > "$2"
                wait
                """)
            let (event, body) = Fixture.alertEvent(id: "evt_hang")
            let transport = CommandTransport(path: script, args: [dir.path("pid"), dir.path("child")],
                                             timeout: .milliseconds(800), killGrace: .milliseconds(300))
            let clock = ContinuousClock()
            let started = clock.now
            let result = transport.deliver(eventId: "evt_hang", timestamp: Fixture.now(), body: body, event: event)
            let elapsed = clock.now - started
            guard case .retry(let reason, nil) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("did not finish within 0.8 s"))
            #expect(elapsed >= .milliseconds(800) && elapsed < .seconds(10))
            // The script itself was reaped by deliver (no zombie): its pid no longer exists.
            let pid = try #require(Int32(dir.text("pid").trimmingCharacters(in: .whitespacesAndNewlines)))
            let alive = kill(pid, 0)
            let error = errno
            #expect(alive == -1 && error == ESRCH)
            // Its child died with the process group (a zombie until init reaps it counts as dead).
            let child = try #require(Int32(dir.text("child").trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(try Fixture.eventually { Fixture.isDeadOrZombie(child) })
        }

        @Test func missingOrNonExecutablePathFailsPermanently() throws {
            let dir = try TemporaryDirectory()
            let (event, body) = Fixture.alertEvent(id: "evt_missing")
            for path in [dir.path("does-not-exist"), try dir.file("not-executable", "#!/bin/sh\nexit 0\n"), dir.path(""), "relative/hook"] {
                let result = CommandTransport(path: path).deliver(eventId: "evt_missing", timestamp: Fixture.now(), body: body, event: event)
                guard case .failed = result else { Issue.record("\(path): expected failed, got \(result)"); continue }
                #expect(CommandTransport.validate(path: path) != nil)
            }
        }

        @Test func chattyCommandThatIgnoresStdinNeitherBlocksNorLeaks() throws {
            let dir = try TemporaryDirectory()
            // Writes far more than a pipe holds to both streams and never reads its stdin.
            let script = try dir.script("chatty", """
                #!/bin/sh
                head -c 1000000 /dev/zero | tr '\\0' 'o'
                head -c 1000000 /dev/zero | tr '\\0' 'e' >&2
                exit 0
                """)
            let body = [UInt8](repeating: UInt8(ascii: "x"), count: 1_000_000)
            let transport = CommandTransport(path: script, timeout: .seconds(20))
            let fdsBefore = Fixture.openFileDescriptors()
            for _ in 0..<10 {
                #expect(transport.deliver(eventId: "evt_chatty", timestamp: Fixture.now(), body: body, event: .null) == .delivered)
            }
            // Three pipes per run would be 30 leaked descriptors; other tests running in
            // parallel open a few of their own, hence the margin.
            #expect(Fixture.openFileDescriptors() - fdsBefore < 15)
        }
    }

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
            for expected in ["A RED alert was raised for patient HT-001.", "RED — present to the emergency department now", "new confusion", "low lab sodium",
                             "11 mmol/L below normal", "POD 7, 2026-03-09", "#42", "escalation tier 0", "hyponatrack ack 42"] {
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
            #expect(mail["subject"] == .string("[HyponaTrack] Acknowledged: RED alert HT-001 (POD 7) by staff:nurse.a"))
            guard case .string(let text)? = mail["body"] else { Issue.record("no text body"); return }
            #expect(text.contains("acknowledged by staff:nurse.a") && text.contains("Reached patient"))
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
                                           to: ["ward7@hospital.example"], username: nil, password: nil, caFile: nil)
            let result = transport.deliver(eventId: "evt_untrusted", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, nil) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("TLS failure"))
            #expect(try server.messageCount() == 0)
        }

        @Test func invalidAddressFailsPermanently() {
            let transport = EmailTransport(smtpURL: "smtps://127.0.0.1:1", from: "hyponatrack@hospital.example",
                                           to: ["ward7@hospital.example>\r\nRCPT TO:<x@evil.example"], username: nil,
                                           password: nil, caFile: nil)
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
                let phrase = AlertWording.phrase(for: code)
                #expect(phrase.short != code || !code.contains("_"), "no short words for \(code)")
                #expect(phrase.long != code || !code.contains("_"), "no words for \(code)")
            }
            #expect(AlertWording.phrase(for: "weight_gain_pct").long == "weight gain vs baseline")
            #expect(AlertWording.phrase(for: "sodium_low").long == "low lab sodium")
            #expect(AlertWording.phrase(for: "confusion").long == "new confusion")
            #expect(AlertWording.phrase(for: "missing_checkin").long == "no morning or evening check by the evening deadline")
            #expect(AlertWording.phrase(for: "no_data_2d").long == "no data for two days")
        }

        @Test func measuredValuesAreShownWithTheirThresholds() {
            #expect(AlertWording.measurement(code: "weight_gain_pct", value: 4.1, threshold: 3.2) == "+4.1 % vs baseline; alert at ≥ 3.2 %")
            #expect(AlertWording.measurement(code: "sodium_profound", value: 124, threshold: 125) == "Na 124 mmol/L; alert at ≤ 125 mmol/L")
            #expect(AlertWording.measurement(code: "urine_sg_support", value: 1.022, threshold: 1.0172)
                    == "urine SG 1.022; supports at ≥ 1.0172")
            #expect(AlertWording.measurement(code: "no_data_2d", value: nil, threshold: nil) == nil)
            #expect(AlertWording.number(7.2000000001) == "7.2" && AlertWording.number(-3) == "-3" && AlertWording.number(0.004) == "0")
        }

        @Test func missingDataAndYellowAlertsReadNaturally() {
            let (event, _) = Fixture.alertEvent(id: "evt_md", level: "yellow", kind: "missing_checkin",
                                                reasons: [["code": "missing_checkin", "level": "yellow", "value": nil, "threshold": nil]])
            let text = EmailText.render(event: event)
            #expect(text.subject == "[HyponaTrack] YELLOW alert HT-001 (POD 7): missed check-ins")
            #expect(text.body.contains("YELLOW — call the patient back today"))
            #expect(text.body.contains("no morning or evening check by the evening deadline"))
        }

        @Test func escalatedResolvedSyncAndReminderEventsHaveTheirOwnText() {
            let escalated = EmailText.render(event: Fixture.alertEvent(id: "e1", type: "alert.escalated", tier: 1).event)
            #expect(escalated.subject == "[HyponaTrack] ESCALATION tier 1: RED alert HT-001 (POD 7) not acknowledged: confusion, low lab sodium")
            let resolved = EmailText.render(event: Fixture.alertEvent(id: "e2", type: "alert.resolved",
                                                                      extra: ["by": "staff:dr.b", "note": "Na rechecked", "sodium": 131]).event)
            #expect(resolved.subject == "[HyponaTrack] Resolved: RED alert HT-001 (POD 7) by staff:dr.b")
            #expect(resolved.body.contains("Measured sodium: 131 mmol/L") && resolved.body.contains("Note: Na rechecked"))

            let halted = EmailText.render(event: ["type": "sync.halted", "id": "e3", "timestamp": "2026-03-09T08:00:00Z",
                                                  "data": ["reason": "REDCap refused the API token (403)"]])
            #expect(halted.subject == "[HyponaTrack] REDCap sync HALTED: REDCap refused the API token (403)")
            #expect(halted.body.contains("hyponatrack sync resume"))
            let unhealthy = EmailText.render(event: ["type": "sync.unhealthy", "id": "e4", "timestamp": "2026-03-09T08:00:00Z",
                                                     "data": ["oldestPendingSeconds": 7500, "pending": 12, "lastFailure": nil]])
            #expect(unhealthy.subject == "[HyponaTrack] REDCap sync unhealthy: 12 rows waiting for 2 h 5 min")
            let reminder = EmailText.render(event: ["type": "reminder.due", "id": "e5", "timestamp": "2026-03-09T07:00:00Z",
                                                    "data": ["studyId": "HT-002", "date": "2026-03-09", "pod": 5, "kind": "missed",
                                                             "at": "2026-03-09T10:00:00Z", "intensity": "elevated",
                                                             "tasks": ["weight_morning", "urine_sg"]]])
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

// MARK: - Peers and fixtures

extension HookTransportTests {
    /// Events as the outbox queues them (`{type, id, timestamp, data}`, compact JSON).
    enum Fixture {
        static func alertEvent(
            id: String, type: String = "alert.opened", level: String = "red", kind: String = "evaluation", tier: Int? = 0,
            reasons: [JSONValue] = [["code": "confusion", "level": "red", "value": 1, "threshold": 1],
                                    ["code": "sodium_low", "level": "red", "value": 11, "threshold": 9.9]],
            extra: [String: JSONValue] = [:]
        ) -> (event: JSONValue, body: [UInt8]) {
            var data = JSONObject([("alertId", 42), ("studyId", "HT-001"), ("date", "2026-03-09"), ("pod", 7), ("level", .string(level)),
                                   ("kind", .string(kind)), ("reasons", .array(reasons)), ("riskClass", "high"),
                                   ("tier", tier.map { .int($0) } ?? .null), ("state", "open")])
            for (key, value) in extra.sorted(by: { $0.key < $1.key }) { data[key] = value }
            let event: JSONValue = ["type": .string(type), "id": .string(id), "timestamp": "2026-03-09T08:00:00.000Z", "data": .object(data)]
            return (event, JSONSerializer.bytes(event))
        }

        static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

        /// An IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT".
        static func httpDate(_ seconds: Int64) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }

        static func isDeadOrZombie(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            // "pid (comm) S …": the state follows the last ")".
            guard let close = stat.lastIndex(of: ")") else { return true }
            return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
        }

        /// Polls `condition` until it holds or `timeout` passes; a condition with a deadline, not a sleep.
        static func eventually(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) throws -> Bool {
            let clock = ContinuousClock()
            let deadline = clock.now + timeout
            while clock.now < deadline {
                if try condition() { return true }
                usleep(10_000)
            }
            return try condition()
        }

        static func openFileDescriptors() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A temporary directory removed when released.
    final class TemporaryDirectory {
        let root: String

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("hooks-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func path(_ name: String) -> String { root + "/" + name }

        /// Writes a file (mode 0644) and returns its path.
        @discardableResult
        func file(_ name: String, _ contents: String) throws -> String {
            try contents.write(toFile: path(name), atomically: true, encoding: .utf8)
            return path(name)
        }

        /// Writes an executable script (mode 0755) and returns its path.
        func script(_ name: String, _ contents: String) throws -> String {
            let p = try file(name, contents + "\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: p)
            return p
        }

        func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(name)))) }
        func text(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }
    }

    /// One of the Python test peers in `scripts/`, started in its own temporary directory; waits
    /// for `ready <port>` (and the `ca PATH` line of `--make-cert`); SIGTERM when released.
    final class ScriptPeer {
        static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts").path

        let directory: TemporaryDirectory
        let port: Int
        let caFile: String?
        private let process: Process

        /// - Parameter arguments: Built from the peer's directory.
        init(_ script: String, arguments: (TemporaryDirectory) -> [String]) throws {
            directory = try TemporaryDirectory()
            let stdout = directory.path("stdout"), stderr = directory.path("stderr")
            _ = FileManager.default.createFile(atPath: stdout, contents: nil)
            _ = FileManager.default.createFile(atPath: stderr, contents: nil)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["python3", Self.scripts + "/" + script] + arguments(directory)
            p.standardOutput = FileHandle(forWritingAtPath: stdout)
            p.standardError = FileHandle(forWritingAtPath: stderr)
            try p.run()
            process = p
            var port: Int?, ca: String?
            _ = try Fixture.eventually(timeout: .seconds(30)) {
                for line in ((try? String(contentsOfFile: stdout, encoding: .utf8)) ?? "").split(separator: "\n") {
                    if line.hasPrefix("ca ") { ca = String(line.dropFirst(3)) }
                    if line.hasPrefix("ready ") { port = Int(line.dropFirst(6)) }
                }
                return port != nil || !p.isRunning
            }
            guard let port else {
                if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
                throw TestFailure("\(script) did not become ready: \((try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "")")
            }
            self.port = port
            caFile = ca
        }

        /// SIGTERM, and SIGKILL if the peer is still there after five seconds (a peer spawned
        /// from a thread that blocks signals would otherwise never see the SIGTERM).
        deinit {
            guard process.isRunning else { return }
            process.terminate()
            if !((try? Fixture.eventually(timeout: .seconds(5)) { !process.isRunning }) ?? false) {
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
        }
    }

    /// `scripts/webhook-receiver` with a fresh secret; deliveries are read from its `--record` file,
    /// faults armed through `/_control` (plain HTTP peers only).
    final class WebhookReceiver {
        let secret: String
        let peer: ScriptPeer
        let tls: Bool

        init(tls: Bool = false) throws {
            let secret = try WebhookSignature.generateSecret()
            self.secret = secret
            self.tls = tls
            peer = try ScriptPeer("webhook-receiver") { dir in
                ["--port", "0", "--secret", secret, "--record", dir.path("deliveries.jsonl")]
                    + (tls ? ["--make-cert", dir.path("tls")] : [])
            }
        }

        var url: String { "\(tls ? "https" : "http")://127.0.0.1:\(peer.port)/hooks/ward" }

        func transport(caFile: String? = nil) -> WebhookTransport {
            WebhookTransport(url: url, secret: WebhookSignature.decodeSecret(secret)!, caFile: caFile)
        }

        func arm(_ control: JSONValue) throws {
            let (status, text) = try LoopbackHTTP.post(port: peer.port, path: "/_control", body: JSONSerializer.string(control))
            guard status == 200 else { throw TestFailure("/_control answered \(status): \(text)") }
        }

        /// Every delivery attempt so far, in arrival order.
        func deliveries() throws -> [JSONObject] {
            let path = peer.directory.path("deliveries.jsonl")
            guard FileManager.default.fileExists(atPath: path) else { return [] }
            return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
                guard case .object(let o) = try JSONParser.parse(String(line)) else { throw TestFailure("not an object: \(line)") }
                return o
            }
        }
    }

    /// `scripts/smtp-receiver` with a throwaway CA, spooling into its directory.
    final class SMTPReceiver {
        let peer: ScriptPeer

        init(tls: String, user: String? = nil, password: String? = nil) throws {
            peer = try ScriptPeer("smtp-receiver") { dir in
                ["--port", "0", "--tls", tls, "--make-cert", dir.path("tls"), "--spool", dir.path("spool")]
                    + (user.map { ["--user", $0] } ?? []) + (password.map { ["--password", $0] } ?? [])
            }
        }

        func transport(scheme: String, username: String?, password: String?) -> EmailTransport {
            EmailTransport(smtpURL: "\(scheme)://127.0.0.1:\(peer.port)", from: "hyponatrack@hospital.example",
                           to: ["ward7@hospital.example", "oncall@hospital.example"], username: username, password: password,
                           caFile: peer.caFile)
        }

        /// The receiver's summary of message `seq` (`<seq>.json`, written after the `.eml`).
        func message(_ seq: Int) throws -> JSONObject {
            let path = peer.directory.path("spool/\(seq).json")
            guard try Fixture.eventually(timeout: .seconds(5), { FileManager.default.fileExists(atPath: path) }) else {
                throw TestFailure("no message \(seq) in the spool")
            }
            guard case .object(let o) = try JSONParser.parse(try String(contentsOfFile: path, encoding: .utf8)) else {
                throw TestFailure("spool summary is not an object")
            }
            return o
        }

        func messageCount() throws -> Int {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: peer.directory.path("spool"))) ?? []
            return files.filter { $0.hasSuffix(".eml") }.count
        }
    }

    /// A minimal HTTP/1.1 client over a loopback TCP socket, for the receivers' control side
    /// (the test target does not link the HTTP client).
    enum LoopbackHTTP {
        static func post(port: Int, path: String, body: String) throws -> (status: Int, body: String) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw TestFailure("socket: \(errno)") }
            defer { close(fd) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw TestFailure("connect to 127.0.0.1:\(port): \(errno)") }
            let payload = Array(body.utf8)
            let request = Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(payload.count)\r\n\r\n".utf8) + payload
            var sent = 0
            while sent < request.count {
                let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, 0) }
                guard n > 0 else { throw TestFailure("send: \(errno)") }
                sent += n
            }
            var response: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                response += buffer[0..<n]
            }
            let text = String(decoding: response, as: UTF8.self)
            let parts = text.components(separatedBy: "\r\n\r\n")
            let status = parts.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return (status, parts.dropFirst().joined(separator: "\r\n\r\n"))
        }
    }
}
