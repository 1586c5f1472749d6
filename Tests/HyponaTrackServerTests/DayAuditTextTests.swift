import Foundation
import HTJSON
import Testing
@testable import HyponaTrackDomain

/// A day submission's audit row is written by hand on the hot path; its text must be what the
/// `Encodable` conformances (the definition) write, for every shape the row takes.
@Suite struct DayAuditTextTests {
    typealias D = AuditDetails
    static func changes(_ all: Bool) -> D.DayChanges {
        guard all else { return D.DayChanges() }
        return D.DayChanges(weightMorningKg: .init(before: nil, after: 79.95), weightEveningKg: .init(before: 80, after: nil),
                            fluidIntakeMl: .init(before: 1500, after: 2250.5), urineSG: .init(before: 1.005, after: 1.0251),
                            vomitingEpisodes: .init(before: nil, after: 2), steps: .init(before: 10, after: nil),
                            hrvSdnnMs: .init(before: 40.5, after: 41), sleepMinutes: .init(before: 420, after: 0),
                            restingHeartRate: .init(before: nil, after: 61), emergencySymptoms: .init(before: [], after: ["confusion", "seizure"]))
    }

    static let samples: [D.DaySubmitted] = [
        D.DaySubmitted(date: "2026-05-01", changed: changes(false), upserted: D.Upserted(), replaced: []),
        D.DaySubmitted(date: "2026-05-02", changed: changes(true),
                       upserted: D.Upserted(symptoms: ["s1", "s\"2"], reactionTests: [], tappingTests: ["t"], desmopressinDoses: ["d"]),
                       replaced: [D.ReplacedItem(list: "symptoms", id: "s1", before: JSONText(#"{"id":"s1","severity":1}"#),
                                                 after: JSONText(#"{"id":"s1","severity":2}"#))],
                       reason: "typo: 97.5 was 79.5 — ü"),
        D.DaySubmitted(date: "2026-05-03", changed: D.DayChanges(urineSG: .init(before: nil, after: 1.02)),
                       upserted: D.Upserted(desmopressinDoses: ["x"]), replaced: [], reason: nil),
    ]

    @Test func theHandWrittenRowIsTheEncodablesText() throws {
        let evaluations = D.EvaluationsRecorded(evaluations: [
            D.EvaluationRecorded(evaluationId: 12, date: "2026-05-02", pod: 6, level: "red", reasons: ["NA_LOW", "WEIGHT_UP"],
                                 rulesVersion: "abc", cause: "submission"),
            D.EvaluationRecorded(evaluationId: 13, date: "2026-05-03", pod: 7, level: nil, reasons: [], rulesVersion: "abc", cause: "correction"),
        ])
        for sample in Self.samples {
            let head = try JSONObjectHead(writing: sample.write)
            #expect(head == (try JSONObjectHead(sample)))
            for tail in [evaluations, D.EvaluationsRecorded(evaluations: [])] {
                #expect(try JSONTextEncoder.string(head, thenWriting: tail.write) == JSONTextEncoder.string(JSONObjectHead(sample), then: tail))
            }
        }
    }
}
