import Foundation

/// Who the client is behind trusted proxies (docs/product.md, "Hostile-traffic details").
///
/// Every `X-Forwarded-For` line counts, joined in order, because a proxy that appends its own
/// line after the client's is indistinguishable from one that appends to the client's line;
/// believing the first line would let the client choose its logged address. Walking from the
/// right, each hop a trusted proxy added is skipped; the first address that is not a trusted
/// proxy is the client. A peer that is not a trusted proxy is the client, whatever it sends.
enum ForwardedFor {
    static func client(peer: String, headerLines: [String], trustedProxies: Set<String>) -> String {
        guard trustedProxies.contains(peer), !headerLines.isEmpty else { return peer }
        let hops = headerLines.joined(separator: ",").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return hops.last { !trustedProxies.contains($0) } ?? peer
    }
}
