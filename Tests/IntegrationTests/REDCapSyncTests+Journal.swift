import Foundation
import Testing
import HTJSON

/// What REDCap's answers leave in the daemon's journal: REDCap quotes the values of the rows it
/// rejects, free text included, so its text goes to the dead letter (for staff) and never to stderr.
extension REDCapSyncTests {
    @Test func aRejectionQuotingFreeTextKeepsTheTextInTheDeadLetterAndOutOfTheJournal() throws {
        // The project validates withdrawal_reason as an integer, so REDCap rejects the reason and
        // quotes it: `"record","withdrawal_reason","<the reason>","The value you provided …"`.
        let dictionary = try REDCapEmulator.modifiedDictionary { line in
            line.hasPrefix("withdrawal_reason,")
                ? "withdrawal_reason,patient_baseline,,text,Reason for withdrawal,,,integer,,,y,[withdrawn] = '1',,,,,,@READONLY"
                : line
        }
        let rig = try SyncRig(emulator: try REDCapEmulator(dictionary: dictionary))
        let id = "SYNC-FREETEXT-1"
        try Self.enroll(rig, id)
        try rig.waitUntilDrained()
        let reason = "felt unsafe after the night of 12 March, wants to stop"
        #expect(try rig.post("/v1/patients/\(id)/withdrawal", ["reason": .string(reason)]).status == 200)
        try rig.waitUntil("the withdrawn baseline is dead-lettered") { try rig.status()["deadLetters"] == 1 }

        guard case .array(let dead)? = try rig.status()["dead"], case .object(let letter)? = dead.first else {
            Issue.record("no dead letter listed"); return
        }
        #expect(Self.string(letter["error"])?.contains(reason) == true, "staff see REDCap's whole text: \(letter)")
        let cli = try rig.cli(["status"])
        #expect(cli.stdout.contains(reason), "\(cli.stdout)")

        let log = rig.daemon.log
        let line = try #require(log.split(separator: "\n").first { $0.contains("dead-lettered") }, "\(log)")
        #expect(!log.contains(reason) && !log.contains("felt unsafe"), "the journal quotes the reason:\n\(log)")
        for expected in ["record=\(id)", "instrument=patient_baseline", "instance=0", "http_status=400",
                         "redcap_fields=withdrawal_reason", "redcap_text_chars="] {
            #expect(line.contains(expected), "\(expected) missing from: \(line)")
        }
    }
}
