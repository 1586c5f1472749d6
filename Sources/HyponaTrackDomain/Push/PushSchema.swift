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
        """
}
