import CCurl
import CCurlShims
import Crypto

#if canImport(Glibc)
import Glibc
#endif

/// libcurl's process-wide setup, done once.
///
/// ``HTTPClient`` calls ``initialize()`` itself; call it early in `main` as well, before any
/// other thread starts, because `curl_global_init` "is not thread-safe" in builds that lack
/// `CURL_VERSION_THREADSAFE` (https://curl.se/libcurl/c/curl_global_init.html).
public enum CurlRuntime {
    /// Initialises OpenSSL (without its atexit handler) and then libcurl. Idempotent and
    /// thread-safe: the work happens exactly once per process.
    ///
    /// Order matters: OpenSSL's atexit cleanup races Swift's teardown on libdispatch threads
    /// (a double free at exit), so `Crypto.initialize()` must run `OPENSSL_init_crypto` with
    /// `OPENSSL_INIT_NO_ATEXIT` before libcurl initialises OpenSSL with defaults — the order
    /// swift-corelibs-foundation uses.
    ///
    /// It also ignores `SIGPIPE` if the process still has the default (fatal) disposition:
    /// every handle sets `CURLOPT_NOSIGNAL`, and then "libcurl [does] NOT ask the system to
    /// ignore SIGPIPE signals … there are some corner cases when they may still happen"
    /// (https://curl.se/libcurl/c/CURLOPT_NOSIGNAL.html). A handler the application installed
    /// itself is left alone. libcurl's global state is never cleaned up: `curl_global_cleanup`
    /// at exit would race threads still finishing transfers.
    public static func initialize() {
        _ = globalInitResult
    }

    /// The `curl_global_init` result; a failure surfaces as an error on every transfer.
    static var initializationFailure: CURLcode? {
        let code = globalInitResult
        return code == CURLE_OK ? nil : code
    }

    /// Throws the `curl_global_init` failure, if there was one.
    static func checkInitialized() throws(CurlFailure) {
        if let code = initializationFailure {
            throw CurlFailure(code: code, detail: "curl_global_init failed: \(CurlFailure.text(of: code))")
        }
    }

    /// A global `static let` is initialised lazily and exactly once (`swift_once`), which is
    /// what makes ``initialize()`` safe to call from many threads.
    private static let globalInitResult: CURLcode = {
        Crypto.initialize()
        ignoreSIGPIPEUnlessHandled()
        return ht_curl_global_init_default()
    }()

    private static func ignoreSIGPIPEUnlessHandled() {
        var current = sigaction()
        guard sigaction(SIGPIPE, nil, &current) == 0 else { return }
        if current.__sigaction_handler.sa_handler == nil, current.sa_flags & SA_SIGINFO == 0 {
            _ = signal(SIGPIPE, SIG_IGN)
        }
    }
}
