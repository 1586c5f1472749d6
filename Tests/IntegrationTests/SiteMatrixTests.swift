import Foundation
import Testing
import HTJSON
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb

/// The sites' authorisation matrix (docs/product.md, third round, S), generated from the one
/// route table: every staff route and console page × a nurse of site A, a viewer of A, a nurse
/// of B, an all-sites nurse and an admin × a patient of A and a patient of B, over real HTTP
/// against the real daemon. Asserted: the role's status (403 where the role may not); a record
/// of another site answered exactly as an unknown one (status and body, the ID swapped); and no
/// answer — JSON, page, CSV, PDF (pdftotext), statistics, audit list, error message — that
/// holds the other site's study ID. A route added to the table later has no fixture here and
/// fails `everyStaffRouteIsInTheMatrix` until its request (and so its scope) is declared.
@Suite(.serialized) struct SiteMatrixTests {
    enum Role: String, CaseIterable { case nurseA, viewerA, nurseB, nurseAll, admin }
    static let patients = ["A": "SITEA-1", "B": "SITEB-1"]

    struct Entry { var method: String, template: String, touches: RouteTarget, capability: StaffCapability, isPage: Bool }

    /// The staff routes of the table the daemon serves (the same code, built in-process).
    static func staffRoutes() throws -> [Entry] {
        try InProcessApplication().app.router.routes.compactMap { r in
            guard case .staff(let capability) = r.access, let touches = r.touches else { return nil }
            return Entry(method: r.method.rawValue, template: r.template, touches: touches, capability: capability, isPage: r.isPage)
        }
    }

    /// The request each route is sent, by template: the path's other parameters, a query, a
    /// body. Empty bodies on purpose: a write reaches its checks without changing the record
    /// the next cases read. Every staff route must be listed.
    static let fixtures: [String: (query: String, form: [String: String])] = {
        var f: [String: (String, [String: String])] = [:]
        for t in ["/v1/patients", "/v1/patients/{studyId}", "/v1/patients/{studyId}/withdrawal", "/v1/patients/{studyId}/activation",
                  "/v1/patients/{studyId}/labs", "/v1/patients/{studyId}/labs/{labId}/deletion",
                  "/v1/patients/{studyId}/days/{date}/{list}/{itemId}/deletion", "/v1/staff", "/v1/staff/{name}/revocation",
                  "/v1/staff/{name}/rotation", "/v1/staff/{name}/password", "/v1/backup", "/v1/audit", "/v1/audit/verify",
                  "/v1/audit/checkpoints", "/v1/sites", "/v1/sites/{code}", "/v1/staff/{name}/sites", "/v1/patients/{studyId}/transfer",
                  "/v1/patients/{studyId}/export.csv", "/v1/export/days.csv", "/v1/export/alerts.csv", "/v1/export/contacts.csv",
                  "/v1/patients/{studyId}/report.pdf", "/v1/statistics", "/v1/patients/{studyId}/days/{date}", "/v1/imports/fhir",
                  "/v1/patients/{studyId}/imports/apple-health", "/v1/proposals", "/v1/proposals/{proposalId}/confirm",
                  "/v1/proposals/{proposalId}/reject", "/v1/patients/{studyId}/contacts", "/v1/patients/{studyId}/reminders",
                  "/v1/alerts", "/v1/alerts/{alertId}/acknowledgement", "/v1/alerts/{alertId}/resolution", "/v1/hooks/status",
                  "/v1/sync/status", "/v1/sync/retry", "/v1/sync/resume", "/v1/sync/check", "/v1/sync/reconcile", "/v1/sync/export-all",
                  "/console/", "/console/patients/{studyId}", "/console/patients/{studyId}/labs", "/console/patients/{studyId}/contacts",
                  "/console/enrolment", "/console/patients/{studyId}/manage", "/console/patients/{studyId}/profile",
                  "/console/patients/{studyId}/activation", "/console/patients/{studyId}/code", "/console/patients/{studyId}/withdrawal",
                  "/console/patients/{studyId}/days", "/console/patients/{studyId}/labs/deletion", "/console/alerts",
                  "/console/alerts/{alertId}/acknowledge", "/console/alerts/{alertId}/resolve", "/console/statistics", "/console/proposals",
                  "/console/proposals/{proposalId}/confirm", "/console/proposals/{proposalId}/reject", "/console/export/days.csv",
                  "/console/export/alerts.csv", "/console/export/contacts.csv", "/console/sync", "/console/patients/{studyId}/report.pdf",
                  "/v1/backups", "/v1/backups/verification", "/v1/hooks/events", "/v1/hooks/events/{eventId}/retry", "/v1/hooks/{name}/enable",
                  "/v1/patients/{studyId}/outcomes", "/v1/export/outcomes.csv", "/v1/outcomes/report", "/v1/rules/backtest",
                  "/v1/rules/shadow", "/v1/rules/promote", "/console/outcomes", "/console/export/outcomes.csv",
                  "/console/patients/{studyId}/outcomes", "/v1/staff/{name}/mfa", "/v1/staff/{name}/mfa/confirmation",
                  "/v1/staff/{name}/mfa/reset", "/console/mfa", "/console/mfa/confirmation"] {
            f[t] = ("", [:])
        }
        f["/console/"] = ("?all=1", [:])
        f["/v1/alerts"] = ("?open=false", [:])
        return f
    }()

    /// The site the role works for (nil: all).
    static func site(of role: Role) -> String? {
        switch role {
        case .nurseA, .viewerA: "A"
        case .nurseB: "B"
        case .nurseAll, .admin: nil
        }
    }

    @Test func everyStaffRouteIsInTheMatrix() throws {
        for r in try Self.staffRoutes() {
            #expect(Self.fixtures[r.template] != nil, "\(r.method) \(r.template) has no request in the sites' matrix: declare one here")
        }
    }

    @Test func everyStaffRouteAnswersEachRoleOnlyAboutItsSitesPatients() throws {
        let m = try Matrix()
        var requests = 0
        for route in try Self.staffRoutes() {
            let fixture = try #require(Self.fixtures[route.template])
            for role in Role.allCases {
                let allowed = route.capability.allows(role == .admin ? .admin : role == .viewerA ? .viewer : .nurse,
                                                      isSelf: false)
                for site in Self.patients.keys.sorted() {
                    let path = try m.path(route.template, site: site) + fixture.query
                    let r = try m.send(route, path, role: role)
                    requests += 1
                    let name = "\(role) \(route.method) \(path) → \(r.status)"
                    // A request that names another site's record hears its ID back exactly as an unknown one's
                    // (checked below); every other answer must not hold it at all.
                    if let other = Self.site(of: role).map({ $0 == "A" ? Self.patients["B"]! : Self.patients["A"]! }), !path.contains(other) {
                        #expect(!m.readable(r).contains(other), "\(name): the body holds \(other)")
                    }
                    guard allowed else {
                        #expect(r.status == 403, "\(name): expected 403")
                        continue
                    }
                    let reaches = Self.site(of: role).map { $0 == site } ?? true
                    let namesRecord = [.patient, .alert, .proposal].contains(route.touches)
                    if namesRecord && !reaches {
                        let unknown = try m.send(route, try m.path(route.template, site: site, unknown: true) + fixture.query, role: role)
                        #expect(r.status == 404 || r.status == unknown.status, "\(name): another site's record must be not found")
                        #expect(m.normalised(r, site: site) == m.normalised(unknown, site: nil), "\(name): not answered as an unknown record")
                        requests += 1
                    } else if namesRecord {
                        #expect(r.status != 404 || route.template.contains("{labId}") || route.template.contains("{itemId}")
                                || route.template.hasSuffix("/code"), "\(name): its own site's record is found")
                    }
                }
            }
        }
        #expect(requests > 600, "the matrix: \(requests) requests")
        print("SiteMatrixTests: \(try Self.staffRoutes().count) staff routes × \(Role.allCases.count) roles × 2 patients: \(requests) requests")
    }
}
