extension AuditDetails {
    /// `site.add`, `site.update`: the site as it is now.
    struct SiteFields: Encodable, Sendable {
        let code: String
        let name: String
        let timeZone: String?
        let clinicPhone: String?
        let emergencyNumber: String?
        let redcapDag: String?

        init(_ site: Site) {
            code = site.code
            name = site.name
            timeZone = site.timeZone
            clinicPhone = site.clinicPhone
            emergencyNumber = site.emergencyNumber
            redcapDag = site.redcapDAG
        }
    }

    /// `site.remove`.
    struct SiteRemoved: Encodable, Sendable {
        let code: String
    }

    /// `staff.sites`, and `staff.add`'s sites.
    struct StaffSiteList: Encodable, Sendable {
        let role: String
        let sites: [String]
        let allSites: Bool
    }

    /// `patient.transfer`.
    struct PatientTransfer: Encodable, Sendable {
        let from: String
        let to: String
    }
}
