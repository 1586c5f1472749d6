import CCurl
import CCurlShims

/// Owns one libcurl easy handle and its error buffer; cleans both up in `deinit`.
///
/// "You must never share the same handle in multiple threads"
/// (https://curl.se/libcurl/c/threadsafe.html). The handle is therefore only ever used by the
/// one thread that checked it out of a ``CurlEasyHandlePool``; the pool's lock hands it over
/// between threads, which is why the unchecked `Sendable` is sound.
final class CurlEasyHandle: @unchecked Sendable {
    /// The `CURL *` itself.
    let raw: UnsafeMutableRawPointer
    /// CURLOPT_ERRORBUFFER: "a buffer … at least CURL_ERROR_SIZE bytes big", which libcurl
    /// writes into until the handle is cleaned up or the option reset, so it lives as long
    /// as the handle (https://curl.se/libcurl/c/CURLOPT_ERRORBUFFER.html).
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// A fresh handle, or nil when libcurl cannot allocate one.
    init?() {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        self.errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// Forgets every option (and with them any pointer into a finished transfer) while
    /// keeping "live connections, the Session ID cache, the DNS cache" for the next request
    /// (https://curl.se/libcurl/c/curl_easy_reset.html).
    func reset() {
        curl_easy_reset(raw)
    }

    // MARK: Options

    func set(_ option: CURLoption, _ value: Int) throws(CurlFailure) {
        try check(ht_curl_easy_setopt_long(raw, option, value), option)
    }

    func set(_ option: CURLoption, _ value: Bool) throws(CurlFailure) {
        try set(option, value ? 1 : 0)
    }

    /// libcurl copies string options: "Strings passed to libcurl as 'char *' arguments, are
    /// copied by the library" (https://curl.se/libcurl/c/curl_easy_setopt.html), so the
    /// C string need only live for this call. Nil resets the option to its default/none.
    func set(_ option: CURLoption, _ value: String?) throws(CurlFailure) {
        guard let value else {
            try check(ht_curl_easy_setopt_str(raw, option, nil), option)
            return
        }
        let code = value.withCString { ht_curl_easy_setopt_str(raw, option, $0) }
        try check(code, option)
    }

    func set(_ option: CURLoption, offset value: Int64) throws(CurlFailure) {
        try check(ht_curl_easy_setopt_off(raw, option, curl_off_t(value)), option)
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(CurlFailure) {
        try check(ht_curl_easy_setopt_ptr(raw, option, value), option)
    }

    func set(
        _ option: CURLoption,
        callback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
    ) throws(CurlFailure) {
        try check(ht_curl_easy_setopt_write_cb(raw, option, callback), option)
    }

    func setProgressCallback(
        _ callback: @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> Int32
    ) throws(CurlFailure) {
        try check(ht_curl_easy_setopt_xferinfo_cb(raw, callback), CURLOPT_XFERINFOFUNCTION)
    }

    /// Points CURLOPT_ERRORBUFFER at this handle's buffer; needed again after ``reset()``.
    func installErrorBuffer() throws(CurlFailure) {
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    // MARK: Transfer

    /// Runs the transfer configured so far, blocking the calling thread.
    ///
    /// - Returns: nil on success, else the failure with the error buffer's text ("the buffer
    ///   will contain a human readable error message"; it may be empty, then
    ///   `curl_easy_strerror` supplies a generic one).
    func perform() -> CurlFailure? {
        clearError()
        let code = curl_easy_perform(raw)
        guard code != CURLE_OK else { return nil }
        return failure(code)
    }

    /// Empties the error buffer before a transfer starts.
    func clearError() { errorBuffer[0] = 0 }

    /// The failure `code` ended the transfer with, in the error buffer's words.
    func failure(_ code: CURLcode) -> CurlFailure {
        errorBuffer[Int(CURL_ERROR_SIZE) - 1] = 0
        var detail = String(cString: errorBuffer)
        while detail.last?.isNewline == true { detail.removeLast() }
        return CurlFailure(code: code, detail: detail.isEmpty ? CurlFailure.text(of: code) : detail)
    }

    func longInfo(_ item: CURLINFO) -> Int? {
        var value = 0
        return ht_curl_easy_getinfo_long(raw, item, &value) == CURLE_OK ? value : nil
    }

    func doubleInfo(_ item: CURLINFO) -> Double? {
        var value = 0.0
        return ht_curl_easy_getinfo_double(raw, item, &value) == CURLE_OK ? value : nil
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(CurlFailure) {
        guard code != CURLE_OK else { return }
        // A setopt failure is a build or programming problem (an option libcurl was built
        // without, an out-of-range value), not the request's fault.
        throw CurlFailure(kind: .other, code: code,
                          detail: "curl_easy_setopt(\(option.rawValue)) failed: \(CurlFailure.text(of: code))")
    }
}
