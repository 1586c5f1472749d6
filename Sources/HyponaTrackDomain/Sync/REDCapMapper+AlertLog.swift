import HyponaTrackCore

extension REDCapMapper {
    /// The `alert_log` row of an alert: instance = the alert's number for the patient. Every
    /// change of the alert sends the whole row again; what is not known yet (acknowledgement,
    /// resolution and their minutes) is blank and filled by a later row. In a longitudinal
    /// project the row goes to the daily event, beside `daily_monitoring`.
    func alertLog(_ a: AlertLogEntry) -> Row {
        repeatingRow(record: a.studyId, form: REDCapFields.alertLogForm, fields: REDCapFields.alertLog, instance: a.instance,
                     values: alertLogValues(a))
    }

    /// A repeating instrument's row (in the daily event of a longitudinal project): every column
    /// of `fields` from `values`, blank where absent.
    func repeatingRow(record: String, form: String, fields: [(String, REDCapFields.Validation)], instance: Int,
                      values v: [String: String]) -> Row {
        var row: Row = [("record_id", record)]
        if let dailyEvent { row.append(("redcap_event_name", dailyEvent)) }
        row += [("redcap_repeat_instrument", form), ("redcap_repeat_instance", String(instance))]
        for column in REDCapFields.columns(fields, form: form) {
            row.append((column, v[column] ?? ""))
        }
        return row
    }

    /// The `alert_log` values of an alert by column: the REDCap row above and the CSV export
    /// (`AlertExport`) both read them.
    func alertLogValues(_ a: AlertLogEntry) -> [String: String] {
        [
            "alert_id": String(a.alertId), "alert_kind": a.kind.rawValue, "alert_log_level": a.level.rawValue,
            "alert_date": a.date.description, "alert_pod": String(a.pod), "alert_log_reasons": a.reasonCodes.joined(separator: ","),
            "alert_opened_at": datetimeSeconds(milliseconds: a.openedAt),
            "alert_ack_at": a.firstAcknowledgedAt.map { datetimeSeconds(milliseconds: $0) } ?? "",
            "alert_ack_role": a.firstAcknowledgedRole?.rawValue ?? "",
            "alert_resolved_at": a.resolvedAt.map { datetimeSeconds(milliseconds: $0) } ?? "",
            "alert_resolution_na": decimal(a.resolveSodium, 1),
            "alert_min_to_ack": minutes(from: a.openedAt, to: a.firstAcknowledgedAt),
            "alert_min_to_resolve": minutes(from: a.openedAt, to: a.resolvedAt),
            "alert_ack_note": a.acknowledgeNote ?? "", "alert_resolution_note": a.resolutionNote ?? "",
            "alert_contact_attempts": String(a.contactAttempts),
            "alert_reached_at": a.reachedAt.map { datetimeSeconds(milliseconds: $0) } ?? "",
            "alert_last_date": (a.lastDate ?? a.date).description,
            // Unverified while the alert is open or acknowledged, complete once resolved.
            "alert_log_complete": a.resolvedAt == nil ? "1" : "2",
        ]
    }

    /// Minutes between two instants (ms since the epoch) to one decimal; blank while `end` is unknown.
    func minutes(from start: Int64, to end: Int64?) -> String {
        guard let end else { return "" }
        return decimal(Double(end - start) / 60_000, 1)
    }

    /// `YYYY-MM-DD HH:MM:SS` (`datetime_seconds_ymd`) in the study's time zone.
    func datetimeSeconds(milliseconds ms: Int64) -> String {
        let local = studyZone.timestamp(atEpochSeconds: Double(ms) / 1000).description   // 2026-03-09T08:05:07.250+01:00
        return String(local.prefix(10)) + " " + String(local.dropFirst(11).prefix(8))
    }
}
