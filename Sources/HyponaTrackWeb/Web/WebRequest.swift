import Foundation
import HTTPServer
import HyponaTrackDomain

/// A request to a page: the HTTP request with what pages need read once — the client's
/// address, cookies, the form body, the language and whether the browser reached us over TLS.
public struct WebRequest: Sendable {
    public let http: HTTPRequest
    public let clientIP: String
    /// Over TLS: `X-Forwarded-Proto: https` from a trusted proxy (the daemon speaks plain HTTP).
    public let isSecure: Bool
    public let cookies: [String: String]
    /// The authority the browser reached: `X-Forwarded-Host` from a trusted proxy, else `Host`.
    public let host: String

    init(_ http: HTTPRequest, trustedProxies: Set<String>) {
        self.http = http
        host = http.headers["x-forwarded-host"].flatMap { trustedProxies.contains(http.clientAddress) ? $0 : nil }
            ?? http.headers["host"] ?? ""
        clientIP = ForwardedFor.client(peer: http.clientAddress, headerLines: http.headers.values(for: "x-forwarded-for"),
                                       trustedProxies: trustedProxies)
        isSecure = trustedProxies.contains(http.clientAddress)
            && http.headers["x-forwarded-proto"]?.lowercased().split(separator: ",").last?
                .trimmingCharacters(in: .whitespaces) == "https"
        cookies = Self.cookies(http.headers.values(for: "cookie"))
    }

    /// The page language: the `ht_lang` cookie (the switch), else `Accept-Language`, else English.
    public var language: Language {
        cookies["ht_lang"].flatMap(Language.init(rawValue:))
            ?? Language.preferred(acceptLanguage: http.headers["accept-language"]) ?? .en
    }

    /// The decoded `application/x-www-form-urlencoded` body (empty for other types).
    func form() throws(HTTPFormError) -> HTTPQueryParameters {
        let type = http.headers.mediaType
        guard type == "application/x-www-form-urlencoded" else { return HTTPQueryParameters() }
        return try HTTPQueryParameters(formURLEncoded: http.body)
    }

    /// `Cookie: a=1; b=2` over one or more header lines; the first of a repeated name wins
    /// (RFC 6265 §5.4 sends the most specific path first).
    static func cookies(_ lines: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for line in lines {
            for pair in line.split(separator: ";") {
                guard let eq = pair.firstIndex(of: "=") else { continue }
                let name = pair[..<eq].trimmingCharacters(in: .whitespaces)
                let value = pair[pair.index(after: eq)...].trimmingCharacters(in: .whitespaces)
                if !name.isEmpty && out[name] == nil { out[name] = value }
            }
        }
        return out
    }
}
