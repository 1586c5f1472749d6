import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The journal's form of a REDCap failure (REDCapFailure): our account, the status, the field
/// names REDCap's text mentions and its length; never a word of REDCap's text otherwise.
@Suite struct REDCapFailureTests {
    @Test func theJournalFormNamesTheSentFieldsButNoQuotedValue() {
        let rows = "\"UKE-1\",\"withdrawal_reason\",\"bmi was wrong, moved to her sister\","
            + "\"The value you provided could not be validated because it does not follow the expected format.\"\n"
            + "\"UKE-1\",\"histology\",\"other\",\"The value is not a valid category for histology\""
        let outcome = REDCapOutcome.classify(status: 400, body: Array(("{\"error\": \"" + rows.replacingOccurrences(of: "\"", with: "\\\"")
                                                                   .replacingOccurrences(of: "\n", with: "\\n") + "\"}").utf8))
        guard case .rejected(let failure) = outcome else { Issue.record("not a rejection: \(outcome)"); return }
        #expect(failure.message.contains("moved to her sister"), "the database keeps the whole text")
        let journal = failure.journal(fields: ["record_id", "withdrawal_reason", "histology", "bmi", "age"])
        #expect(journal["redcap_fields"] == "withdrawal_reason,bmi,histology",
                "names in order of appearance; a sent name inside the value (bmi) is a name too")
        #expect(journal["http_status"] == "400" && journal["redcap_text_chars"] == String(rows.count))
        #expect(!journal.values.contains { $0.contains("sister") || $0.contains("other") || $0.contains("UKE-1") }, "\(journal)")
    }

    @Test func aServerErrorPageIsJournalledByStatusAndLengthOnly() {
        let page = "<html>Fatal error: INSERT INTO redcap_data VALUES ('moved to her sister')</html>"
        guard case .transient(let failure) = REDCapOutcome.classify(status: 500, body: Array(page.utf8)) else {
            Issue.record("500 is not transient"); return
        }
        #expect(failure.journal() == ["error": "REDCap answered 500", "http_status": "500", "redcap_text_chars": String(page.count)])
        #expect(failure.message.contains("moved to her sister"))
    }
}
