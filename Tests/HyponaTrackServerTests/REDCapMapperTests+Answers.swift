import Foundation
import Testing
import HTJSON
import HTTPClient
import HyponaTrackCore
import HyponaTrackKit
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// REDCap's answers as the sync classifies them, and the request pacer (docs/redcap.md, "Errors").
extension REDCapMapperTests {
    // MARK: REDCap's answers (docs/redcap.md, "Errors")

    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// A validation 400 as `classify` reads it: REDCap's text kept apart from our account.
    static func rejection(_ text: String) -> REDCapFailure {
        REDCapFailure(status: 400, summary: "REDCap rejected the request (400)", quoted: text)
    }

    @Test func answersAreClassifiedAsRedcapMdSays() {
        func classify(_ status: Int, _ body: String) -> REDCapOutcome { REDCapOutcome.classify(status: status, body: Self.bytes(body)) }
        func isTransient(_ o: REDCapOutcome) -> Bool { if case .transient = o { true } else { false } }
        func isHalt(_ o: REDCapOutcome, _ fragment: String = "") -> Bool {
            if case .halt(let f) = o { return fragment.isEmpty || f.message.contains(fragment) } else { return false }
        }
        // 200 {"count": N} → imported.
        #expect(classify(200, "{\"count\": 3}") == .imported(count: 3))
        #expect(classify(200, "{\"count\":0}") == .imported(count: 0))
        // 200 with an error page, or anything else without a count → transient.
        #expect(isTransient(classify(200, "<!DOCTYPE html><html><body><b>CRITICAL ERROR: REDCap server is offline!</b></body></html>")))
        #expect(isTransient(classify(200, "")))
        #expect(isTransient(classify(200, "[\"1001\"]")))
        // 400 validation (CSV rows) → rejected with REDCap's message.
        let rows = "\"UKE-1\",\"histology\",\"other\",\"The value is not a valid category for histology\"\n"
            + "\"UKE-1\",\"bmi\",\"22\",\"The value you provided could not be validated because it does not follow the expected format.\""
        #expect(classify(400, JSONSerializer.string(["error": .string(rows)])) == .rejected(Self.rejection(rows)))
        #expect(classify(400, "{\"error\": \"The following fields were not found in the project as real data fields: foo\"}")
                == .rejected(Self.rejection("The following fields were not found in the project as real data fields: foo")))
        // 400 maintenance → transient.
        #expect(isTransient(classify(400, "REDCap is currently offline for maintenance. Please try again later.")))
        #expect(isTransient(classify(400, "{\"error\": \"This project is currently OFFLINE and cannot be accessed.\"}")))
        // 400 project deleted / completed → halt.
        #expect(isHalt(classify(400, "{\"error\": \"The project (PID 42) has been deleted and its API can no longer be used.\"}"), "deleted"))
        #expect(isHalt(classify(400, "{\"error\": \"This project (PID 42) has been marked as Completed and is now read-only.\"}")))
        // 403 token / rights → halt.
        #expect(isHalt(classify(403, "{\"error\": \"You do not have permissions to use the API\"}"), "403"))
        #expect(isHalt(classify(403, "{\"error\": \"You do not have API Import/Update privileges\"}"), "Import/Update"))
        #expect(isHalt(classify(403, "{\"error\": \"You do not have API Export privileges\"}"), "Export"))
        #expect(isHalt(classify(401, "")))
        // 429 → a permanent ban: halt, never retried on a timer.
        #expect(isHalt(classify(429, "Your IP address (10.0.0.7) has been banned due to suspected abuse."), "banned"))
        // 5xx → transient.
        for status in [500, 502, 503, 504] { #expect(isTransient(classify(status, "<html>Fatal error</html>")), "\(status)") }
        // 501 (wrong method) is a bug in the sync: halt for a person to look.
        #expect(isHalt(classify(501, "The requested method GET is not implemented on this server.")))
        #expect(isHalt(classify(404, "<h1>Not Found</h1>")))
        // 413 (REDCap's or a proxy's body limit): retrying the same batch would fail forever; a
        // rejection splits it.
        if case .rejected(let f) = classify(413, "<html>413 Request Entity Too Large</html>") { #expect(f.message.contains("413")) } else {
            Issue.record("413 is not a rejection")
        }
    }

    @Test func aValidationRejectionIsNotMistakenForMaintenanceOrADeletedProject() {
        // The rows name records and values: a study ID or value that happens to contain "offline",
        // "deleted" or "completed" is still a validation 400 (dead-letter), not a halt or an outage.
        for row in ["\"COMPLETED-7\",\"histology\",\"other\",\"The value is not a valid category for histology\"",
                    "\"deleted-2\",\"sex\",\"x\",\"The value is not a valid category for sex\"",
                    "\"Offline-3\",\"bmi\",\"22\",\"The value you provided could not be validated because it does not follow the expected format. Please try again.\""] {
            let o = REDCapOutcome.classify(status: 400, body: Self.bytes(JSONSerializer.string(["error": .string(row)])))
            #expect(o == .rejected(Self.rejection(row)), "\(row) → \(o)")
        }
    }

    @Test func transportFailuresAreTransientButAFailedCertificateVerificationHalts() {
        func error(_ kind: HTTPClientError.Kind, _ code: Int) -> HTTPClientError {
            HTTPClientError(kind: kind, curlCode: code, detail: "detail", method: "POST", redactedURL: "https://redcap.example.org/api/")
        }
        func isTransient(_ o: REDCapOutcome) -> Bool { if case .transient = o { true } else { false } }
        func isHalt(_ o: REDCapOutcome) -> Bool { if case .halt = o { true } else { false } }
        #expect(isTransient(REDCapOutcome.classify(error(.timedOut, 28))))
        #expect(isTransient(REDCapOutcome.classify(error(.couldNotResolve, 6))))
        #expect(isTransient(REDCapOutcome.classify(error(.couldNotConnect, 7))))
        #expect(isTransient(REDCapOutcome.classify(error(.receiveFailed, 56))))    // reset
        #expect(isTransient(REDCapOutcome.classify(error(.receiveFailed, 52))))    // empty reply
        #expect(isTransient(REDCapOutcome.classify(error(.sendFailed, 55))))
        // A TLS connect failure (handshake reset or timed out: CURLE_SSL_CONNECT_ERROR) is transient …
        #expect(isTransient(REDCapOutcome.classify(error(.tlsFailure, 35))))
        // … a certificate that fails verification is not: a person must look.
        #expect(isHalt(REDCapOutcome.classify(error(.tlsFailure, 60))))
        #expect(isHalt(REDCapOutcome.classify(error(.tlsFailure, 77))))
        #expect(isHalt(REDCapOutcome.classify(error(.invalidURL, 3))))
    }

    // MARK: the request pacer

    final class FakeClock: @unchecked Sendable {
        var t = 1_000.0
        var sleeps = 0
    }

    @Test func thePacerCountsARequestUntilItWasAnswered() {
        let clock = FakeClock()
        let pacer = RequestPacer(perMinute: 2, now: { clock.t }, sleep: { clock.t += $0; clock.sleeps += 1 })
        let first = pacer.acquire()
        clock.t += 0.005                                  // the first request took 5 ms to be answered
        pacer.finished(first)
        pacer.finished(pacer.acquire())
        // The third may only go 60 s after the first was answered, not 60 s after it was stamped.
        let third = pacer.acquire()
        #expect(third >= first + 60.005 - 1e-9, "third at \(third - first) s")
        #expect(pacer.recent == 1)                        // both earlier ones were answered at +5 ms
    }

    @Test func waitingForASlotStopsWhenAskedTo() {
        let clock = FakeClock()
        let pacer = RequestPacer(perMinute: 1, now: { clock.t }, sleep: { clock.t += $0; clock.sleeps += 1 })
        #expect(pacer.waitForSlot(unless: { false }))     // a free window: at once
        #expect(clock.sleeps == 0)
        pacer.finished(pacer.acquire())
        var polls = 0
        #expect(!pacer.waitForSlot(unless: { polls += 1; return polls > 3 }))   // a stop cuts the wait short
        #expect(clock.sleeps == 3 && clock.t < 1_001, "slept \(clock.sleeps) times in steps of at most 0.2 s")
        #expect(pacer.waitForSlot(unless: { false }))     // …and without a stop it waits the window out
        #expect(clock.t >= 1_060)
    }
}
