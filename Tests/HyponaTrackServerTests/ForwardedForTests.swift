import Foundation
import Testing
import HTJSON
@testable import HyponaTrackDomain
@testable import HyponaTrackConfigFile
@testable import HyponaTrackWeb
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

    @Test func hopsAreComparedAndReportedInOneSpellingWithTheirPortsAndBracketsRemoved() {
        let v6: Set<String> = ["2001:db8::10"]
        #expect(ForwardedFor.client(peer: "2001:db8::10", headerLines: ["2001:DB8:0::1"], trustedProxies: v6) == "2001:db8::1")
        #expect(ForwardedFor.client(peer: "10.0.0.1", headerLines: ["[2001:db8::1]:443"], trustedProxies: proxies) == "2001:db8::1")
        #expect(ForwardedFor.client(peer: "10.0.0.1", headerLines: ["198.51.100.9:5678"], trustedProxies: proxies) == "198.51.100.9")
        #expect(ForwardedFor.client(peer: "10.0.0.1", headerLines: ["::ffff:198.51.100.9"], trustedProxies: proxies) == "198.51.100.9")
        #expect(ForwardedFor.client(peer: "10.0.0.1", headerLines: ["198.51.100.9, 10.0.0.2:80"], trustedProxies: proxies) == "198.51.100.9",
                "a trusted proxy written with its port is still skipped")
    }

    @Test func aHopThatIsNoAddressLeavesThePeerAndIsNeverTakenAsTheClient() {
        for junk in ["unknown", "garbage", "proxy.example", "1.2.3.4:x", "[::1", "<script>"] {
            #expect(ForwardedFor.client(peer: "10.0.0.1", headerLines: ["198.51.100.9, \(junk)"], trustedProxies: proxies) == "10.0.0.1", "\(junk)")
        }
    }

    @Test func aTrustedProxyConfiguredInAnotherSpellingMatchesThePeer() throws {
        let config = try ServerConfiguration.parse(["trustedProxies": ["0:0:0:0:0:0:0:1", "::FFFF:10.0.0.7"]],
                                                   directory: URL(fileURLWithPath: "/tmp"), file: nil)
        #expect(config.trustedProxies == ["::1", "10.0.0.7"])
    }
}
