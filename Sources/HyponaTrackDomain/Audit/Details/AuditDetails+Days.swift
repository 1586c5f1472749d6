import HTJSON

/// Rows of a patient's days, items, labs and evaluations.
extension AuditDetails {
    /// `day.submit`, `day.correct`: what the submission changed (`DayAudit.changes`), then
    /// (`EvaluationsRecorded`) what each evaluation it caused concluded. The first part is
    /// written as text before the single writer is reached (`SubmissionPlan.make`, a
    /// `JSONObjectHead`); only the evaluations, whose ids the insert assigns, are written inside.
    struct DaySubmitted: Encodable, Sendable {
        let date: String
        let changed: DayChanges
        let upserted: Upserted
        let replaced: [ReplacedItem]
        /// Why staff corrected the day (required from the console, optional in the API); absent
        /// for a patient's own submission.
        @OmittedWhenNil var reason: String? = nil
    }

    /// The last member of a `day.submit`/`day.correct` row (see `DaySubmitted`).
    struct EvaluationsRecorded: Encodable, Sendable {
        var evaluations: [EvaluationRecorded]
    }

    /// Every scalar of the day that changed, before and after; unchanged ones are left out.
    struct DayChanges: Encodable, Sendable {
        @OmittedWhenNil var weightMorningKg: Change<Double?>? = nil
        @OmittedWhenNil var weightEveningKg: Change<Double?>? = nil
        @OmittedWhenNil var fluidIntakeMl: Change<Double?>? = nil
        @OmittedWhenNil var urineSG: Change<Double?>? = nil
        @OmittedWhenNil var vomitingEpisodes: Change<Int?>? = nil
        @OmittedWhenNil var steps: Change<Int?>? = nil
        @OmittedWhenNil var hrvSdnnMs: Change<Double?>? = nil
        @OmittedWhenNil var sleepMinutes: Change<Int?>? = nil
        @OmittedWhenNil var restingHeartRate: Change<Int?>? = nil
        @OmittedWhenNil var emergencySymptoms: Change<[String]>? = nil
    }

    struct Change<Value: Encodable & Sendable & Equatable>: Encodable, Sendable {
        let before: Value
        let after: Value

        /// Nil when nothing changed.
        static func of(_ before: Value, _ after: Value) -> Change? {
            before == after ? nil : Change(before: before, after: after)
        }
    }

    /// The ids of the items the submission carried, per list; lists it did not carry are left out.
    struct Upserted: Encodable, Sendable {
        @OmittedWhenNil var symptoms: [String]? = nil
        @OmittedWhenNil var reactionTests: [String]? = nil
        @OmittedWhenNil var tappingTests: [String]? = nil
        @OmittedWhenNil var desmopressinDoses: [String]? = nil
    }

    /// An item the submission replaced with a different one under the same id.
    struct ReplacedItem: Encodable, Sendable {
        let list: String
        let id: String
        let before: JSONText
        let after: JSONText
    }

    /// `evaluation.record`, and each evaluation of a day submission's row.
    struct EvaluationRecorded: Encodable, Sendable {
        let evaluationId: Int64
        let date: String
        let pod: Int
        let level: String?
        let reasons: [String]
        let rulesVersion: String
        let cause: String
    }

    /// `lab.add`.
    struct LabAdded: Encodable, Sendable {
        let labId: Int64
        let date: String
        let time: String
        let sodium: Double
    }

    /// `lab.delete`.
    struct LabDeleted: Encodable, Sendable {
        struct Before: Encodable, Sendable { let sodium: Double }
        let labId: Int64
        let date: String
        let before: Before
        let reason: String
    }

    /// `item.delete`: the item as it was (`ModelText.item`; null if it could not be read).
    struct ItemDeleted: Encodable, Sendable {
        let date: String
        let list: String
        let id: String
        let before: JSONText?
        let reason: String
    }
}
