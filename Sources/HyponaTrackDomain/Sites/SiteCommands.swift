/// `hyponatrack site add`, `POST /v1/sites` (admin).
@dynamicMemberLookup
public struct AddSite: Sendable {
    public var definition: SiteDefinition
    public var actor: String

    public init(code: String, name: String, timeZone: String? = nil, clinicPhone: String? = nil, emergencyNumber: String? = nil,
                redcapDAG: String? = nil, actor: String) {
        definition = SiteDefinition(code: code, name: name, timeZone: timeZone, clinicPhone: clinicPhone,
                                    emergencyNumber: emergencyNumber, redcapDAG: redcapDAG)
        self.actor = actor
    }

    public subscript<T>(dynamicMember member: KeyPath<SiteDefinition, T>) -> T { definition[keyPath: member] }
}

/// `hyponatrack site update`, `PATCH /v1/sites/{code}` (admin). Each optional member: nil keeps
/// the stored value, `.some(nil)` clears it (the site then uses the study's), `.some(value)` sets it.
public struct UpdateSite: Sendable {
    public var code: String
    public var name: String?
    public var timeZone: String??
    public var clinicPhone: String??
    public var emergencyNumber: String??
    public var redcapDAG: String??
    public var actor: String

    public init(code: String, name: String? = nil, timeZone: String?? = nil, clinicPhone: String?? = nil,
                emergencyNumber: String?? = nil, redcapDAG: String?? = nil, actor: String) {
        self.code = code
        self.name = name
        self.timeZone = timeZone
        self.clinicPhone = clinicPhone
        self.emergencyNumber = emergencyNumber
        self.redcapDAG = redcapDAG
        self.actor = actor
    }
}

/// `DELETE /v1/sites/{code}` (admin): refused while a patient or an active staff member belongs to it.
public struct RemoveSite: Sendable {
    public var code: String
    public var actor: String

    public init(code: String, actor: String) {
        self.code = code
        self.actor = actor
    }
}

/// Which sites a staff member works for: some (`sites`, codes), or all (`allSites`); neither
/// given: the study's one site when it has one. Admins are always all-sites.
public struct StaffSites: Sendable, Equatable {
    public var sites: [String]
    public var allSites: Bool

    public init(sites: [String] = [], allSites: Bool = false) {
        self.sites = sites
        self.allSites = allSites
    }
}

/// `hyponatrack staff sites NAME`, `PUT /v1/staff/{name}/sites` (admin, audited).
public struct SetStaffSites: Sendable {
    public var name: String
    public var sites: StaffSites
    public var actor: String

    public init(name: String, sites: StaffSites, actor: String) {
        self.name = name
        self.sites = sites
        self.actor = actor
    }
}

/// `hyponatrack transfer ID --site CODE`, `POST /v1/patients/{studyId}/transfer` (admin,
/// audited): the patient moves with every day, alert and contact.
public struct TransferPatient: Sendable {
    public var studyId: String
    public var site: String
    public var actor: String

    public init(studyId: String, site: String, actor: String) {
        self.studyId = studyId
        self.site = site
        self.actor = actor
    }
}

/// A transfer done: the patient and the sites it moved between.
public struct Transferred: Sendable, Equatable {
    public var studyId: String
    public var from: String
    public var to: String
}
