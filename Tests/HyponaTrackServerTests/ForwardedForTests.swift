import Testing
@testable import HyponaTrackServer

@Suite("X-Forwarded-For: the rightmost hop that is not a trusted proxy")
struct ForwardedForTests {
    let proxies: Set<String> = ["10.0.0.1", "10.0.0.2"]

    @Test func aPeerThatIsNotATrustedProxyIsTheClientWhateverItSends() {
        #expect(ForwardedFor.client(peer: "203.0.113.7", headerLines: ["198.51.100.9"], trustedProxies: proxies) == "203.0.113.7")
    }

    @Test func behindOneProxyTheLastHopIsTheClient() {
        #expect(ForwardedFor.client(peer: "10.0.0.1", headerLines: ["198.51.100.9, 203.0.113.7"], trustedProxies: proxies)
                == "203.0.113.7")
    }

    @Test func aSecondHeaderLineAppendedByTheProxyWinsOverTheClientsOwnLine() {
        // The client sent "X-Forwarded-For: 1.2.3.4"; the proxy added its own line with the real peer.
        let lines = ["1.2.3.4", "203.0.113.7"]
        #expect(ForwardedFor.client(peer: "10.0.0.1", headerLines: lines, trustedProxies: proxies) == "203.0.113.7")
    }

    @Test func hopsAddedByTrustedProxiesAreSkippedFromTheRight() {
        let lines = ["1.2.3.4, 203.0.113.7", "10.0.0.2"]
        #expect(ForwardedFor.client(peer: "10.0.0.1", headerLines: lines, trustedProxies: proxies) == "203.0.113.7")
    }

    @Test func onlyTrustedOrEmptyHopsLeaveThePeer() {
        #expect(ForwardedFor.client(peer: "10.0.0.1", headerLines: ["10.0.0.2, ,"], trustedProxies: proxies) == "10.0.0.1")
        #expect(ForwardedFor.client(peer: "10.0.0.1", headerLines: [], trustedProxies: proxies) == "10.0.0.1")
    }
}
