import CCurl
import CCurlShims

/// Facts about the linked libcurl.
public enum CurlLibrary {
    /// libcurl's version, e.g. "7.88.1".
    public static var version: String {
        guard let info = ht_curl_version_info_now() else { return "unknown" }
        return String(cString: info.pointee.version)
    }
    /// The TLS backend libcurl was built with, e.g. "OpenSSL/3.0.x".
    public static var sslVersion: String {
        guard let info = ht_curl_version_info_now(), let ssl = info.pointee.ssl_version else { return "none" }
        return String(cString: ssl)
    }
}
