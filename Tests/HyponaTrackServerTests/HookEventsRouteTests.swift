import Foundation
import HTJSON
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb

/// The hook events' routes refuse a malformed query or path naming the field, in process.
@Suite struct HookEventsRouteTests {
    static func field(_ json: JSONValue) -> String? {
        guard case .object(let o) = json, case .object(let e)? = o["error"], case .string(let f)? = e["field"] else { return nil }
        return f
    }

    @Test(arguments: [("hook=", "hook"), ("hook=a%20b", "hook"), ("state=lost", "state"), ("limit=0", "limit"), ("limit=", "limit")])
    func aMalformedListingQueryIsRefusedNamingItsParameter(_ query: String, _ name: String) throws {
        let h = try InProcessApplication()
        let r = h.send(.get, "/v1/hooks/events?\(query)")
        #expect(r.status == 400 && Self.field(r.json) == name, "\(r.json)")
    }

    @Test func aMalformedEventIdOrHookNameIsRefusedAndAnUnknownOneIsNotFound() throws {
        let h = try InProcessApplication()
        let bad = h.send(.post, "/v1/hooks/events/evt_xyz/retry")
        #expect(bad.status == 400 && Self.field(bad.json) == "eventId", "\(bad.json)")
        #expect(h.send(.post, "/v1/hooks/events/evt_0123456789abcdef01234567/retry").status == 404)
        #expect(h.send(.post, "/v1/hooks/nobody/enable").status == 404)
        #expect(h.send(.get, "/v1/hooks/events?state=dead&limit=5").status == 200)
    }
}
