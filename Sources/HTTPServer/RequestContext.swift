/// Per-request state that libmicrohttpd carries for us in `*req_cls`.
///
/// Created in `MHD_OPTION_URI_LOG_CALLBACK` ("The specified function is called only once per
/// request, therefore some programmers may use it to instantiate their own request objects,
/// freeing them in the notifier #MHD_OPTION_NOTIFY_COMPLETED", microhttpd.h), retained via
/// `Unmanaged.passRetained`, released in the completion callback. All calls for one request
/// happen on one MHD thread, one at a time, so no lock is needed.
final class RequestContext {
    enum Phase {
        /// Before the access handler's first call (headers not yet parsed).
        case awaitingHeaders
        /// Headers seen; body chunks, if any, are arriving.
        case receivingBody
        /// A response has been queued; anything further is ignored.
        case responded
    }

    let requestID = RequestID.make()
    let started = ContinuousClock.now
    /// The request-target exactly as received (path and query, still encoded).
    let rawTarget: [UInt8]

    var phase = Phase.awaitingHeaders
    var body: [UInt8] = []
    /// Set once the body passed the cap; later chunks are counted and dropped.
    var bodyTooLarge = false
    var discardedBodyBytes = 0

    // For the access log.
    var method = HTTPMethod(rawValue: "")
    var clientAddress = ""
    var logPath = ""
    var status: HTTPStatus?
    var responseBodyBytes = 0

    init(rawTarget: [UInt8]) {
        self.rawTarget = rawTarget
        // Until the target is parsed, log the raw path without the query (it may hold secrets).
        let pathEnd = rawTarget.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        logPath = String(decoding: rawTarget[..<(pathEnd ?? rawTarget.endIndex)], as: UTF8.self)
    }
}
