import HyponaTrackCore

extension REDCapMapper {
    /// The `outcome_log` row of an outcome: instance = 1 + the patient's earlier outcomes. A
    /// withdrawal sends the whole row again with `outcome_status` withdrawn. In a longitudinal
    /// project the row goes to the daily event, beside `alert_log`.
    func outcomeLog(_ o: OutcomeRecord) -> Row {
        repeatingRow(record: o.studyId, form: REDCapFields.outcomeLogForm, fields: REDCapFields.outcomeLog, instance: o.instance,
                     values: outcomeLogValues(o))
    }

    /// The `outcome_log` values by column: the REDCap row and the outcomes CSV read them.
    func outcomeLogValues(_ o: OutcomeRecord) -> [String: String] {
        [
            "outcome_id": String(o.id), "outcome_kind": o.kind.rawValue, "outcome_date": o.date.description,
            "outcome_pod": String(o.pod), "outcome_sodium": decimal(o.sodium, 1), "outcome_source": o.source.rawValue,
            "outcome_status": o.status.rawValue, "outcome_note": o.note ?? "",
            "outcome_log_complete": "2",
        ]
    }
}
