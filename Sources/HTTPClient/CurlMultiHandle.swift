import CCurl
import CCurlShims

/// Owns one libcurl multi handle (`curl_multi_init`), which keeps its own connection cache, so
/// the HTTP/2 connections it opened stay open for the next batch; cleaned up in `deinit`.
///
/// Like an easy handle, a multi handle is used by one thread at a time
/// (https://curl.se/libcurl/c/threadsafe.html); ``MultiplexedHTTPClient`` holds it under its
/// lock for a whole batch, which is why the unchecked `Sendable` is sound.
final class CurlMultiHandle: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer

    /// A multi handle that multiplexes HTTP/2 streams (`CURLMOPT_PIPELINING` =
    /// `CURLPIPE_MULTIPLEX`) over at most `maxConnections` connections to one host
    /// (`CURLMOPT_MAX_HOST_CONNECTIONS`; transfers beyond what they carry wait in libcurl's
    /// queue rather than opening more) and `maxTotalConnections` in all
    /// (`CURLMOPT_MAX_TOTAL_CONNECTIONS`), with at most `maxStreams` streams on each
    /// (`CURLMOPT_MAX_CONCURRENT_STREAMS`; a server may allow fewer).
    init(maxConnections: Int, maxTotalConnections: Int, maxStreams: Int) throws(CurlFailure) {
        guard let raw = curl_multi_init() else { throw CurlFailure(kind: .other, detail: "curl_multi_init failed (out of memory)") }
        self.raw = raw
        try set(CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        try set(CURLMOPT_MAX_HOST_CONNECTIONS, maxConnections)
        try set(CURLMOPT_MAX_TOTAL_CONNECTIONS, maxTotalConnections)
        try set(CURLMOPT_MAX_CONCURRENT_STREAMS, maxStreams)
    }

    deinit {
        curl_multi_cleanup(raw)
    }

    func set(_ option: CURLMoption, _ value: Int) throws(CurlFailure) {
        let code = ht_curl_multi_setopt_long(raw, option, value)
        guard code == CURLM_OK else {
            throw CurlFailure(kind: .other, detail: "curl_multi_setopt(\(option.rawValue)) failed: \(Self.text(of: code))")
        }
    }

    func add(_ easy: CurlEasyHandle) throws(CurlFailure) {
        let code = curl_multi_add_handle(raw, easy.raw)
        guard code == CURLM_OK else { throw CurlFailure(kind: .other, detail: "curl_multi_add_handle failed: \(Self.text(of: code))") }
    }

    func remove(_ easy: CurlEasyHandle) {
        _ = curl_multi_remove_handle(raw, easy.raw)
    }

    /// Moves every transfer as far as it can without waiting (`curl_multi_perform`).
    func perform() throws(CurlFailure) {
        var running: Int32 = 0
        let code = curl_multi_perform(raw, &running)
        guard code == CURLM_OK else { throw CurlFailure(kind: .other, detail: "curl_multi_perform failed: \(Self.text(of: code))") }
    }

    /// Waits until a socket of some transfer is ready or `milliseconds` passed (`curl_multi_poll`).
    func poll(milliseconds: Int32) throws(CurlFailure) {
        let code = curl_multi_poll(raw, nil, 0, milliseconds, nil)
        guard code == CURLM_OK else { throw CurlFailure(kind: .other, detail: "curl_multi_poll failed: \(Self.text(of: code))") }
    }

    /// The next finished transfer's easy handle (its `raw`) and result, or nil.
    func nextDone() -> (easy: UnsafeMutableRawPointer, result: CURLcode)? {
        var easy: UnsafeMutableRawPointer?
        var result = CURLE_OK
        guard ht_curl_multi_next_done(raw, &easy, &result) == 1, let easy else { return nil }
        return (easy, result)
    }

    private static func text(of code: CURLMcode) -> String { String(cString: curl_multi_strerror(code)) }
}
