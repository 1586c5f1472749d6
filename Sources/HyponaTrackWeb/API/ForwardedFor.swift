import Foundation
import HTTPServer
import HyponaTrackDomain

/// Who the client is behind trusted proxies (docs/product.md, "Hostile-traffic details").
///
/// Every `X-Forwarded-For` line counts, joined in order, because a proxy that appends its own
/// line after the client's is indistinguishable from one that appends to the client's line;
/// believing the first line would let the client choose its logged address. Walking from the
/// right, each hop a trusted proxy added is skipped; the first address that is not a trusted
/// proxy is the client. A peer that is not a trusted proxy is the client, whatever it sends.
///
/// Addresses are compared in one spelling (`IPAddressText`): `trustedProxies` are canonical from
/// the configuration, a hop is read as a proxy writes it (`[v6]:port`, `v4:port`) and made
/// canonical. A hop that is no address (`unknown`, a name, garbage) cannot be the client: the
/// peer is (the proxy's bucket and log line), as when every hop is a trusted proxy; the string
/// itself never becomes a bucket key, a log value or an audit subject.
enum ForwardedFor {
    static func client(peer: String, headerLines: [String], trustedProxies: Set<String>) -> String {
        guard trustedProxies.contains(peer), !headerLines.isEmpty else { return peer }
        for raw in headerLines.joined(separator: ",").split(separator: ",").reversed() {
            let hop = raw.trimmingCharacters(in: .whitespaces)
            if hop.isEmpty { continue }
            guard let address = IPAddressText.fromForwardedHop(hop) else { return peer }
            if !trustedProxies.contains(address) { return address }
        }
        return peer
    }
}
