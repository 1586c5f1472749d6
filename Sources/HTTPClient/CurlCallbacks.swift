import CCurl
import CCurlShims

/// The C callbacks libcurl calls during `curl_easy_perform`, on the performing thread.
///
/// Plain `@convention(c)` closures without captures, kept out of `main.swift`-style
/// top-level code (where they would be main-actor isolated and trap when C calls them from
/// another thread). Their context is the transfer's ``TransferState``, passed unretained.
enum CurlCallbacks {
    /// CURLOPT_WRITEFUNCTION: "Your callback should return the number of bytes actually
    /// taken care of. If that amount differs from the amount passed to your callback
    /// function, it signals an error condition to the library. This causes the transfer to
    /// get aborted and the libcurl function used returns CURLE_WRITE_ERROR."
    /// (https://curl.se/libcurl/c/CURLOPT_WRITEFUNCTION.html)
    static let body: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, context in
        let length = size * count
        guard let context, length > 0 else { return length }
        let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        return state.appendBody(bytes) ? length : 0
    }

    /// CURLOPT_HEADERFUNCTION: "called once for each header and only complete header lines
    /// are passed on to the callback"; the same return-value rule aborts the transfer.
    /// (https://curl.se/libcurl/c/CURLOPT_HEADERFUNCTION.html)
    static let header: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, context in
        let length = size * count
        guard let context, length > 0 else { return length }
        let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        return state.appendHeaderLine(bytes) ? length : 0
    }

    /// CURLOPT_XFERINFOFUNCTION: "Returning a non-zero value from this callback will cause
    /// libcurl to abort the transfer and return CURLE_ABORTED_BY_CALLBACK"; it is called
    /// "roughly once per second or sooner" even when nothing moves, so a cancelled task's
    /// transfer stops promptly. (https://curl.se/libcurl/c/CURLOPT_XFERINFOFUNCTION.html)
    static let progress: @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> Int32 = {
        context, _, _, _, _ in
        guard let context else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
        return state.shouldAbort() ? 1 : 0
    }
}
