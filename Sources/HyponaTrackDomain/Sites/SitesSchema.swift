/// Migration `v19_sites` (Schema): the centres of a multi-centre study (docs/product.md, third
/// round, S). Every database gets the site `main` (id 1): an existing one keeps every patient
/// there and makes its existing staff all-sites, so nothing any of them could reach before the
/// upgrade is out of reach after it; a new one starts with the one site, which enrolment and
/// `staff add` take when no site is named.
enum SitesSchema {
    /// The id of the site the upgrade creates (`patients.site_id`'s default).
    static let mainId: Int64 = 1
    static let mainCode = "main"

    static let v1 = """
        CREATE TABLE sites (
            id INTEGER PRIMARY KEY,
            code TEXT NOT NULL UNIQUE,          -- [a-z][a-z0-9_]{0,31} (SiteCode)
            name TEXT NOT NULL,
            time_zone TEXT,                     -- the enrolment default; NULL: defaultTimeZone
            clinic_phone TEXT,                  -- NULL: app.clinicPhone
            emergency_number TEXT,              -- NULL: app.emergencyNumber
            redcap_dag TEXT,                    -- the REDCap Data Access Group's unique name
            created_at INTEGER NOT NULL,
            created_by TEXT NOT NULL,
            updated_at INTEGER NOT NULL
        ) STRICT;
        INSERT INTO sites (id, code, name, created_at, created_by, updated_at)
        VALUES (\(mainId), '\(mainCode)', '\(mainCode)', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), 'system',
                CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));

        -- The sites a staff member works for; a member with all_sites = 1 (and every admin) sees all.
        CREATE TABLE staff_sites (
            staff_id INTEGER NOT NULL REFERENCES staff(id),
            site_id INTEGER NOT NULL REFERENCES sites(id),
            PRIMARY KEY (staff_id, site_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX staff_sites_site ON staff_sites(site_id);
        ALTER TABLE staff ADD COLUMN all_sites INTEGER NOT NULL DEFAULT 0;
        UPDATE staff SET all_sites = 1;

        -- A column added with a REFERENCES clause must default to NULL while foreign keys are on,
        -- so the site is kept by the services (a site holding patients is not removed).
        ALTER TABLE patients ADD COLUMN site_id INTEGER NOT NULL DEFAULT \(mainId);
        CREATE INDEX patients_site ON patients(site_id);
        """
}
