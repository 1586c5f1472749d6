extension HTTPClientRequest {
    /// A `POST` whose body is `fields` in `application/x-www-form-urlencoded` form, as HTML
    /// forms and the REDCap API expect ("body `application/x-www-form-urlencoded`").
    ///
    /// Encoding (see ``FormURLEncoding``): each name and value is UTF-8, RFC 3986 unreserved
    /// characters (`A–Z a–z 0–9 - . _ ~`) are kept, every other byte becomes `%XX` with
    /// upper-case hex — a space is `%20`, never `+` (so a literal `+` is `%2B`). Pairs are
    /// joined with `&`, in the order given; repeated names are kept.
    ///
    /// - Parameters:
    ///   - url: The endpoint, e.g. `https://redcap.example.org/api/`.
    ///   - fields: Name–value pairs; secrets such as an API token belong here, not in the URL.
    ///   - headers: Extra header fields (a `Content-Type` given here is replaced).
    public static func formURLEncoded(
        url: String, fields: [(String, String)], headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPClientRequest {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/x-www-form-urlencoded")
        return HTTPClientRequest(method: .post, url: url, headers: headers,
                                 body: Array(FormURLEncoding.encode(fields).utf8))
    }

    /// A request with an already-serialised JSON body (`Content-Type: application/json;
    /// charset=utf-8`, `Accept: application/json`). A nil body sends none (e.g. for `GET`).
    public static func json(
        method: Method, url: String, body: String?, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPClientRequest {
        json(method: method, url: url, bytes: body.map { Array($0.utf8) }, headers: headers)
    }

    /// The same with the JSON text as UTF-8 bytes.
    public static func json(
        method: Method, url: String, bytes body: [UInt8]?, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPClientRequest {
        var headers = headers
        if !headers.contains("Accept") { headers.add(name: "Accept", value: "application/json") }
        if body != nil { headers.replaceOrAdd(name: "Content-Type", value: "application/json; charset=utf-8") }
        return HTTPClientRequest(method: method, url: url, headers: headers, body: body)
    }
}
