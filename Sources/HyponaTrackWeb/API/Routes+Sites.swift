import HTJSON
import HTTPServer
import HyponaTrackDomain

extension Routes {
    /// The study's sites, the sites a staff member works for, and patients' transfers between
    /// them (docs/product.md, third round, S); admins only, each change audited.
    static func sites(_ service: StudyService) -> [Route] {
        let sites = service.sites
        let with = Responses.adding(to: Responses.staff(notFound: "no such site, staff member or patient"))
        return [
            Route(.get, "/v1/sites", access: .staff(.admin), touches: .system, summary: "The study's sites, with their patients and staff counted",
                  responses: with([200: ("sites", S.array(SiteJSON.site.reference))])) { _ in
                .json(.ok, .array(try sites.list().map(SiteJSON.site.encode)))
            },
            Route(.post, "/v1/sites", access: .staff(.admin), touches: .system, summary: "Add a site",
                  request: S.body(SiteBodies.addition),
                  responses: with([201: ("added", SiteJSON.site.reference), 409: ("code taken", S.error)])) { ctx in
                let command = try decodeBody(ctx.body) { r throws(FieldError) in
                    AddSite(code: try r.required(SiteBodies.code.required), name: try r.required(SiteBodies.name.required),
                            timeZone: try r.optional(SiteBodies.timeZone), clinicPhone: try r.optional(SiteBodies.clinicPhone),
                            emergencyNumber: try r.optional(SiteBodies.emergencyNumber), redcapDAG: try r.optional(SiteBodies.redcapDag),
                            actor: ctx.actor)
                }
                return .json(.created, SiteJSON.site.encode(try sites.add(command)))
            },
            Route(.patch, "/v1/sites/{code}", access: .staff(.admin), touches: .system,
                  summary: "Change a site's name, time zone, clinic phone, emergency number or REDCap DAG (null: the study's value again)",
                  request: S.body(SiteBodies.change), responses: with([200: ("changed", SiteJSON.site.reference)])) { ctx in
                let code = ctx.parameter("code")
                let command = try decodeBody(ctx.body) { r throws(FieldError) in
                    UpdateSite(code: code, name: try r.optional(SiteBodies.name), timeZone: try SiteBodies.change(r, SiteBodies.timeZone),
                               clinicPhone: try SiteBodies.change(r, SiteBodies.clinicPhone),
                               emergencyNumber: try SiteBodies.change(r, SiteBodies.emergencyNumber),
                               redcapDAG: try SiteBodies.change(r, SiteBodies.redcapDag), actor: ctx.actor)
                }
                return .json(.ok, SiteJSON.site.encode(try sites.update(command)))
            },
            Route(.delete, "/v1/sites/{code}", access: .staff(.admin), touches: .system, summary: "Remove a site no patient or staff member belongs to",
                  responses: with([204: ("removed", nil), 409: ("a patient or an active staff member still belongs to it", S.error)])) { ctx in
                try sites.remove(RemoveSite(code: ctx.parameter("code"), actor: ctx.actor))
                return .raw(HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-store"]))
            },
            Route(.put, "/v1/staff/{name}/sites", access: .staff(.admin), touches: .system,
                  summary: "Set the sites a staff member works for (sites, or allSites); admins always work for all",
                  request: S.body(SiteBodies.staffSites), responses: with([200: ("the member", AdminJSON.member.reference)])) { ctx in
                let name = try StaffBodies.name(ctx)
                let wanted = try decodeBody(ctx.body) { r throws(FieldError) in try SiteBodies.staffSites(r) }
                return .json(.ok, AdminJSON.member.encode(try sites.setStaffSites(SetStaffSites(name: name, sites: wanted, actor: ctx.actor))))
            },
            Route(.post, "/v1/patients/{studyId}/transfer", access: .staff(.admin), touches: .patient,
                  summary: "Move a patient to another site: days, alerts and contacts go along",
                  request: S.body([SiteBodies.site.required.member]),
                  responses: with([200: ("transferred", SiteJSON.transferred.reference)])) { ctx in
                let site = try decodeBody(ctx.body) { r throws(FieldError) in try r.required(SiteBodies.site.required) }
                return .json(.ok, SiteJSON.transferred.encode(try sites.transfer(TransferPatient(studyId: ctx.parameter("studyId"), site: site,
                                                                                                 actor: ctx.actor))))
            },
        ]
    }
}

/// The sites' body members, declared once for the decoder and the spec.
enum SiteBodies {
    static let codePattern = "^[a-z][a-z0-9_]{0,31}$"
    static let codeExpected = "a site code: a lower-case letter, then up to 31 lower-case letters, digits or _"
    static let code = BodyField.pattern("code", codePattern, length: 1...32, expected: codeExpected, SiteRules.isValidCode)
    /// A site named in a body (a transfer, a member's sites): every refusal names `site`.
    static let site = BodyField.pattern("site", codePattern, length: 1...32, expected: codeExpected, SiteRules.isValidCode)
    static let name = BodyField.text("name", length: SiteRules.nameLength)
    static let timeZone = BodyField.pattern("timeZone", "^[A-Za-z0-9_+/-]{1,64}$", length: 1...64, expected: "an IANA time zone",
                                            SiteRules.isValidTimeZone)
    static let clinicPhone = BodyField.pattern("clinicPhone", "^\\+?[0-9 ]{1,30}$", length: 1...30,
                                               expected: "a telephone number of digits, spaces and a leading +") {
        SiteRules.isValidPhone($0, length: 1...30)
    }
    static let emergencyNumber = BodyField.pattern("emergencyNumber", "^\\+?[0-9 ]{1,20}$", length: 1...20,
                                                   expected: "a telephone number of digits, spaces and a leading +") {
        SiteRules.isValidPhone($0, length: 1...20)
    }
    static let redcapDag = BodyField.pattern("redcapDag", "^[a-z0-9_]{1,32}$", length: SiteRules.dagLength,
                                             expected: "a REDCap group's unique name: lower-case letters, digits or _", SiteRules.isValidDAG)
    static let allSites = BodyField.bool("allSites")

    static let addition = [code.required.member, name.required.member, timeZone.member, clinicPhone.member, emergencyNumber.member,
                           redcapDag.member]
    static let change = [name.member, timeZone.member, clinicPhone.member, emergencyNumber.member, redcapDag.member]
    static let sitesMember = BodyMember(name: "sites", schema: S.nullable(S.array(S.string(codePattern), max: 100)), isRequired: false)
    static let staffSites = [sitesMember, allSites.member]

    /// A member a PATCH may clear: absent keeps (nil), null clears (`.some(nil)`), a value sets.
    static func change(_ r: ObjectReader, _ field: BodyField<String>) throws(FieldError) -> String?? {
        switch try r.presence(field.name, field.read) {
        case .absent: return nil
        case .null: return .some(nil)
        case .value(let v): return .some(v)
        }
    }

    /// `sites` (codes) and `allSites`; every refused code names `site`, as the CLI's `--site`.
    static func staffSites(_ r: ObjectReader) throws(FieldError) -> StaffSites {
        let codes = try r.optionalArray("sites", maxCount: 100) { value, _ throws(FieldError) in try site.read.convert(value, "site") } ?? []
        return StaffSites(sites: codes, allSites: try r.optional(allSites) ?? false)
    }
}

/// `?site=CODE` on a list or an export: only that site's patients (the router's scope step reads it).
enum SiteParameters {
    static let filter = QueryParameter("site", schema: S.string(SiteBodies.codePattern),
                                       description: "only the patients of this site (among the caller's)")
}

/// The API forms of sites and transfers.
enum SiteJSON {
    static let site = ResponseShape<SiteView>("Site", [
        .member("code", .string) { $0.site.code },
        .member("name", .string) { $0.site.name },
        .member("timeZone", .nullable(.string)) { $0.site.timeZone },
        .member("clinicPhone", .nullable(.string)) { $0.site.clinicPhone },
        .member("emergencyNumber", .nullable(.string)) { $0.site.emergencyNumber },
        .member("redcapDag", .nullable(.string)) { $0.site.redcapDAG },
        .member("patients", .integer) { $0.patients },
        .member("staff", .integer) { $0.staff },
    ])

    static let transferred = ResponseShape<Transferred>(nil, [
        .member("studyId", .string(S.studyId)) { $0.studyId },
        .member("from", .string) { $0.from },
        .member("to", .string) { $0.to },
    ])
}
