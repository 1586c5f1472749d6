import CMicroHTTPD
import CMHDShims

/// Facts about the linked libmicrohttpd.
public enum MicroHTTPDLibrary {
    /// `MHD_get_version()`, e.g. "0.9.75".
    public static var version: String { String(cString: ht_mhd_version()) }
}
