import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Every route of the one route table — the API's and both page families' — declares what it
/// touches (docs/product.md, third round, R), and the declaration agrees with its path, so the
/// sites' scope rule can be applied from the table alone. A route added later without one fails
/// here.
@Suite struct RouteTargetTests {
    struct Entry { var method: String, template: String, touches: RouteTarget?, patientAccess: Bool }

    static func table() throws -> [Entry] {
        let h = try InProcessApplication()
        return h.app.router.routes.map { r in
            Entry(method: r.method.rawValue, template: r.template, touches: r.touches,
                  patientAccess: r.access == .patient || r.access == .patientSignOut)
        }
    }

    @Test func everyRouteDeclaresWhatItTouches() throws {
        let routes = try Self.table()
        #expect(routes.count > 70, "the whole table: \(routes.count) routes")
        for r in routes {
            #expect(r.touches != nil, "\(r.method) \(r.template) declares nothing it touches")
        }
    }

    @Test func theDeclarationAgreesWithThePath() throws {
        for r in try Self.table() {
            let name = "\(r.method) \(r.template)"
            let named: [(String, RouteTarget)] = [("{studyId}", .patient), ("{alertId}", .alert), ("{proposalId}", .proposal)]
            for (parameter, target) in named {
                #expect(r.template.contains(parameter) == (r.touches == target), "\(name): \(parameter) ⇔ .\(target)")
            }
            if r.patientAccess { #expect(r.touches == .ownRecord, "\(name): a patient reaches only their own record") }
            if r.touches == .ownRecord {
                #expect(r.patientAccess || r.template.hasSuffix("/activate"), "\(name): only a patient's routes or activation")
            }
        }
    }
}
