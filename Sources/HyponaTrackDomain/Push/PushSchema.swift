/// Migration `v18_push` (Schema): the patients' push devices (docs/product.md, W, "Push
/// reminders"). A device is the app's or browser's registration under the patient's own
/// `device_id`; `address` is the APNs/FCM token or the Web Push endpoint, registered once across
/// all patients (a token registered by another patient moves to that patient).
enum PushSchema {
    static let v1 = """
        CREATE TABLE push_devices (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            device_id TEXT NOT NULL,
            platform TEXT NOT NULL CHECK (platform IN ('apns', 'fcm', 'webpush')),
            address TEXT NOT NULL,
            -- Web Push only: the subscription's keys (base64url), RFC 8291.
            p256dh TEXT,
            auth TEXT,
            language TEXT CHECK (language IN ('en', 'de')),
            state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'gone')),
            registered_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            last_success_at INTEGER,
            UNIQUE (patient_id, device_id),
            UNIQUE (platform, address)
        ) STRICT;

        -- One delivery per (reminder, device), stored before it is sent. `reminder` names the
        -- reminder within the patient's local day (`date`); `collapse_id` is the HMAC of
        -- (patient, reminder) sent as apns-collapse-id / Topic, so a resend after a crash
        -- replaces the first on the phone. `next_attempt_at` NULL: nothing more will be tried.
        CREATE TABLE push_deliveries (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL,
            reminder TEXT NOT NULL,
            kind TEXT NOT NULL,
            slot TEXT NOT NULL,
            due_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            device_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            collapse_id TEXT NOT NULL,
            state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'gone', 'failed', 'expired')),
            attempts INTEGER NOT NULL DEFAULT 0,
            last_attempt_at INTEGER,
            next_attempt_at INTEGER,
            error TEXT,
            UNIQUE (patient_id, date, reminder, device_id)
        ) STRICT;
        CREATE INDEX push_deliveries_due ON push_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
        CREATE INDEX push_deliveries_by_patient ON push_deliveries (patient_id, date);
        """
}
