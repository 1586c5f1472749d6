import CCurl
import CCurlShims

/// The settings every libcurl transfer of this project gets, whatever the protocol: the one
/// place where TLS verification, the protocol allow-list, proxies and timeouts are decided.
///
/// The seam for mail: an SMTP sender applies the same policy with ``Protocols/mail`` and
/// adds its own options (`CURLOPT_MAIL_FROM`, `CURLOPT_USE_SSL`, …); nothing here can turn
/// verification off.
struct CurlTransportPolicy: Sendable {
    /// Which URL schemes a transfer may use (CURLOPT_PROTOCOLS_STR, libcurl ≥ 7.85).
    enum Protocols: String, Sendable {
        /// HTTP and HTTPS: the HTTP client.
        case web = "http,https"
        /// SMTP with STARTTLS or implicit TLS: a future mail sender.
        case mail = "smtp,smtps"
    }

    var protocols: Protocols
    var caFile: String?
    var proxy: String?
    var timeout: Duration
    var connectTimeout: Duration

    func apply(to handle: CurlEasyHandle) throws(CurlFailure) {
        try handle.installErrorBuffer()
        // "If you use libcurl in a multi-threaded application … set this option to 1"; it
        // keeps libcurl from using signals (alarm()) for timeouts, which are process-wide.
        // (https://curl.se/libcurl/c/CURLOPT_NOSIGNAL.html)
        try handle.set(CURLOPT_NOSIGNAL, true)
        // Anything else (file://, gopher://, dict://, …) is refused with
        // CURLE_UNSUPPORTED_PROTOCOL, including as a redirect target.
        try handle.set(CURLOPT_PROTOCOLS_STR, protocols.rawValue)
        // Verification is libcurl's default; set explicitly so no earlier option or build
        // default can weaken it. VERIFYHOST 2 is "verify that the server cert is for the
        // server it is known as" (https://curl.se/libcurl/c/CURLOPT_SSL_VERIFYHOST.html).
        try handle.set(CURLOPT_SSL_VERIFYPEER, true)
        try handle.set(CURLOPT_SSL_VERIFYHOST, 2)
        try handle.set(CURLOPT_PROXY_SSL_VERIFYPEER, true)
        try handle.set(CURLOPT_PROXY_SSL_VERIFYHOST, 2)
        try handle.set(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
        if let caFile {
            // Trust exactly this file: clearing CURLOPT_CAPATH drops the build's default
            // directory (/etc/ssl/certs on Debian), which would otherwise still be consulted.
            try handle.set(CURLOPT_CAINFO, caFile)
            try handle.set(CURLOPT_CAPATH, nil as String?)
        }
        // "" disables proxies "even if there is an environment variable set for it"
        // (https://curl.se/libcurl/c/CURLOPT_PROXY.html): no silent detour via http_proxy.
        try handle.set(CURLOPT_PROXY, proxy ?? "")
        try handle.set(CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout))
        try handle.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connectTimeout))
    }

    /// libcurl reads 0 as "never time out" (CURLOPT_TIMEOUT_MS) or "the 300 s default"
    /// (CURLOPT_CONNECTTIMEOUT_MS), so a limit is rounded up and never below 1 ms.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 1 }
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let fraction = (attoseconds + perMillisecond - 1) / perMillisecond
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow, scaled <= Int64(Int.max) - fraction else { return Int.max }
        return max(1, Int(scaled + fraction))
    }
}
