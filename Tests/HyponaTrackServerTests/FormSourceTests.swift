import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Which form posts count as coming from our own pages (security review, finding 1), and that
/// every form anyone may post without a session is a sign-in form guarded by the pre-session
/// token: a new anonymous POST page added later without it makes this fail.
@Suite struct FormSourceTests {
    @Test func fetchMetadataAndOriginDecideWhetherAFormPostCameFromOurPages() {
        let host = "ward.example:8750"
        let accepted: [(String?, String?)] = [
            (nil, nil),                                        // curl: left to the CSRF token
            ("null", "same-origin"),                           // chromium's own post under no-referrer
            ("http://ward.example:8750", "same-origin"),
            ("http://ward.example", nil),                      // a proxy that drops the port
            (nil, "none"),
        ]
        for (origin, site) in accepted {
            #expect(FormSource.refusal(origin: origin, fetchSite: site, host: host) == nil, "\(origin ?? "-") \(site ?? "-")")
        }
        let refused: [(String?, String?)] = [
            ("null", nil), ("null", "cross-site"), ("null", "same-site"), (nil, "cross-site"), (nil, "same-site"),
            ("https://evil.example", nil), ("https://evil.example", "same-origin"), ("http://ward.example.evil", "same-origin"),
            ("garbage", nil), (nil, "something-new"),
        ]
        for (origin, site) in refused {
            #expect(FormSource.refusal(origin: origin, fetchSite: site, host: host) != nil, "\(origin ?? "-") \(site ?? "-")")
        }
    }

    @Test func everyFormPostedWithoutASessionIsASignInFormWithItsPreSessionToken() throws {
        let h = try InProcessApplication()
        let anonymousPosts = h.app.router.routes.filter { route in
            route.isPage && route.method == .post && (route.access == .anonymous || route.access == .signIn)
        }
        #expect(anonymousPosts.allSatisfy { $0.access == .signIn }, "an anonymous POST without the sign-in token")
        #expect(Set(anonymousPosts.map(\.template)) == ["/console/login", "/app/activate"],
                "the curl-level tests (SignInFormCSRFTests) cover exactly these: \(anonymousPosts.map(\.template))")
    }
}
