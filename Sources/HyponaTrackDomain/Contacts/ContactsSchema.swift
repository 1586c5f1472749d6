/// Migration `v16_contacts` (Schema): the contact log, and each alert's first acknowledgement
/// note for REDCap's `alert_ack_note` (kept apart from `acknowledge_note`, which a worsening
/// clears, as `first_acknowledged_at` is kept apart from `acknowledged_at`).
enum ContactsSchema {
    static let v1 = """
        -- One row per contact attempt; alert_id: the alert it was about (the patient's own).
        CREATE TABLE contacts (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            alert_id INTEGER REFERENCES alerts(id),
            outcome TEXT NOT NULL CHECK (outcome IN ('reached', 'no_answer', 'voicemail', 'patient_called', 'other')),
            note TEXT,
            contact_at INTEGER NOT NULL,
            staff TEXT NOT NULL
        ) STRICT;
        CREATE INDEX contacts_by_patient ON contacts (patient_id, id);
        CREATE INDEX contacts_by_alert ON contacts (alert_id) WHERE alert_id IS NOT NULL;

        -- The note of each alert's first acknowledgement, from the audit trail for older alerts.
        ALTER TABLE alerts ADD COLUMN first_acknowledge_note TEXT;
        WITH first AS (
            SELECT CAST(json_extract(details, '$.alertId') AS INTEGER) AS alert_id, MIN(seq) AS seq
            FROM audit_log WHERE action = 'alert.acknowledge' GROUP BY 1
        )
        UPDATE alerts SET first_acknowledge_note = json_extract(l.details, '$.note')
        FROM first JOIN audit_log l ON l.seq = first.seq
        WHERE alerts.id = first.alert_id;

        -- Every alert_log row gains fields (notes, contact attempts): the first start with the
        -- REDCap sync configured queues every alert again (as v4_alert_log's backfill does).
        INSERT OR IGNORE INTO alert_log_backfill (alert_id) SELECT id FROM alerts;
        """
}
