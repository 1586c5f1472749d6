import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// "Remind me on this phone" on the web check-in, in-process (docs/product.md, W, and settled
/// W): the control carries the VAPID public key and the page's CSRF token and stays hidden
/// without script; the script and the service worker are same-origin files (no inline script);
/// `POST /app/devices` registers the subscription with the cookie and the CSRF token.
@Suite struct PushWebCheckInTests {
    static func page(_ s: PushDeliveryTests.Scene) -> String {
        s.h.client.send(.get, "/app/", headers: ["Cookie": "ht_patient=\(s.token)"]).bodyText ?? ""
    }

    static func attribute(_ name: String, in page: String) -> String? {
        guard let r = page.range(of: "\(name)=\"") else { return nil }
        return String(page[r.upperBound...].prefix { $0 != "\"" })
    }

    static func post(_ s: PushDeliveryTests.Scene, csrf: String?, body: JSONValue) -> HTTPResponse {
        var headers: HTTPHeaders = ["Cookie": "ht_patient=\(s.token)", "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"]
        if let csrf { headers.add(name: "X-CSRF-Token", value: csrf) }
        return s.h.client.send(.post, "/app/devices", headers: headers, body: JSONSerializer.string(body))
    }

    @Test func todaysPageOffersTheControlWithTheVAPIDKeyHiddenUntilScriptShowsIt() throws {
        let s = try PushDeliveryTests.Scene()
        let page = Self.page(s)
        #expect(page.contains("<button type=\"button\" id=\"remind-me\" class=\"secondary\" hidden"))
        let key = try #require(Self.attribute("data-vapid-key", in: page))
        #expect(key == s.h.app.domain.pushKeys.vapid?.publicKeyBase64URL && key.count == 87)
        #expect(page.contains("<script src=\"/app/push.js\" defer></script>"))
        #expect(page.components(separatedBy: "<script").count - 1 == 1, "no inline script")
        for path in ["/app/sw.js", "/app/push.js"] {
            let r = s.h.client.send(.get, path)
            #expect(r.status == .ok && r.headers["content-type"]?.hasPrefix("text/javascript") == true, "\(path)")
        }
        #expect((s.h.client.send(.get, "/app/push.js").bodyText ?? "").contains("pushManager.subscribe"))
    }

    @Test func noControlWithoutWebPush() throws {
        let h = try InProcessApplication(clock: SimulationClock(Berlin.at("2026-03-09", "09:00")))
        let token = try h.enrollAndActivate("PW-0", surgeryDate: "2026-03-04")
        let page = h.client.send(.get, "/app/", headers: ["Cookie": "ht_patient=\(token)"]).bodyText ?? ""
        #expect(page.contains("id=\"today\"") || page.contains("<main"))
        #expect(!page.contains("remind-me") && !page.contains("<script"))
    }

    @Test func theSubscriptionIsRegisteredWithTheCookieAndThePagesCSRFToken() throws {
        let s = try PushDeliveryTests.Scene()
        let csrf = try #require(Self.attribute("data-csrf", in: Self.page(s)))
        let body = try PushDeviceTests.subscription(endpoint: "https://push.test.invalid/sub/web")
        #expect(Self.post(s, csrf: nil, body: body).status == .forbidden, "no CSRF token")
        #expect(Self.post(s, csrf: "wrong", body: body).status == .forbidden)
        #expect(Self.post(s, csrf: csrf, body: body).status == .created)
        #expect(Self.post(s, csrf: csrf, body: body).status == .ok, "the same subscription replaces itself")
        guard case .array(let devices) = s.h.send(.get, "/v1/me/devices", token: s.token).json else { Issue.record("no list"); return }
        #expect(devices.count == 2, "the scene's browser and this one")
        let refused = Self.post(s, csrf: csrf, body: try PushDeviceTests.subscription(endpoint: "http://push.test.invalid/x"))
        #expect(refused.status == .badRequest && (refused.bodyText ?? "").contains("subscription.endpoint"))
    }
}
