/// Tables for staff, bearer tokens, activation codes and the activation lockout.
///
/// Secrets are never stored: tokens and codes appear only as lower-case SHA-256 hex digests
/// (see `Secrets`). Times are INTEGER milliseconds since the epoch (`*_at`, `locked_until`).
/// Actors (`created_by`, `revoked_by`) are audit actor strings such as `staff:alice` or
/// `system`, so they stay meaningful without a staff row (the bootstrap admin is created by
/// `system`).
public enum SecuritySchema {
    /// The first version; registered as migration `v1_security`, after `patients` exists.
    public static let v1 = """
        -- Staff members. A name is never reused (not even after revocation), so an audit
        -- actor 'staff:<name>' always means one person. NOCASE: 'Alice' and 'alice' collide.
        CREATE TABLE staff (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            role TEXT NOT NULL CHECK (role IN ('admin', 'nurse', 'viewer')),
            created_at INTEGER NOT NULL,
            created_by TEXT NOT NULL,
            revoked_at INTEGER,
            revoked_by TEXT
        ) STRICT;

        -- Staff bearer tokens ('hts_...'), stored as SHA-256 hex of the whole token.
        -- expires_at NULL = no expiry (nothing sets one yet; authentication honours it).
        CREATE TABLE staff_tokens (
            id INTEGER PRIMARY KEY,
            staff_id INTEGER NOT NULL REFERENCES staff(id),
            token_hash TEXT NOT NULL UNIQUE,
            created_at INTEGER NOT NULL,
            expires_at INTEGER,
            revoked_at INTEGER
        ) STRICT;
        CREATE INDEX staff_tokens_staff ON staff_tokens(staff_id);

        -- Patient bearer tokens ('htp_...'), issued by a successful activation.
        CREATE TABLE patient_tokens (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            token_hash TEXT NOT NULL UNIQUE,
            created_at INTEGER NOT NULL,
            expires_at INTEGER,
            revoked_at INTEGER
        ) STRICT;
        CREATE INDEX patient_tokens_patient ON patient_tokens(patient_id);

        -- One-time activation codes; code_hash = SHA-256 hex over the patient id and the
        -- normalized code (Secrets.activationCodeHash). A code is usable while used_at and
        -- revoked_at are NULL and expires_at is in the future.
        CREATE TABLE activation_codes (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            code_hash TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            used_at INTEGER,
            revoked_at INTEGER
        ) STRICT;
        CREATE INDEX activation_codes_patient ON activation_codes(patient_id, code_hash);

        -- Failed activations per study ID key (patients.study_id_key form), also for study
        -- IDs that do not exist, so a refusal never reveals which IDs are enrolled.
        -- failures counts consecutive failures since the last success or expired lock;
        -- locked_until (ms) is set when failures reaches the limit.
        CREATE TABLE activation_attempts (
            study_id_key TEXT PRIMARY KEY,
            failures INTEGER NOT NULL DEFAULT 0,
            last_failure_at INTEGER NOT NULL,
            locked_until INTEGER
        ) STRICT;
        """
}
