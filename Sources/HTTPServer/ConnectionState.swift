import Synchronization

/// Per-request state that libmicrohttpd carries for us in `*req_cls`.
///
/// Created in `MHD_OPTION_URI_LOG_CALLBACK` ("The specified function is called only once per
/// request, therefore some programmers may use it to instantiate their own request objects,
/// freeing them in the notifier #MHD_OPTION_NOTIFY_COMPLETED", microhttpd.h), retained via
/// `Unmanaged.passRetained`, released in the completion callback. All calls for one request
/// happen on one MHD thread, one at a time, so no lock is needed; the one thing another
/// thread touches is `answer`, which is locked.
final class ConnectionState {
    enum Phase {
        /// Before the access handler's first call (headers not yet parsed).
        case awaitingHeaders
        /// Headers seen; body chunks, if any, are arriving.
        case receivingBody
        /// The request is with its handler and the connection suspended until it answers.
        case withHandler
        /// A response has been queued; anything further is ignored.
        case responded
    }

    let requestID = RequestID.make()
    let started = ContinuousClock.now
    /// The request-target exactly as received (path and query, still encoded).
    let rawTarget: [UInt8]
    /// `rawTarget` parsed, once: the upload spool's decision and the request both need it.
    lazy var target: Result<RequestTarget, RequestTargetError> = Result { () throws(RequestTargetError) in
        try RequestTarget(parsing: rawTarget)
    }

    var phase = Phase.awaitingHeaders
    /// The connection (libmicrohttpd's pointer as a number), for the connection guard.
    var connectionKey: UInt = 0
    /// Where the handler's answer waits for the resumed connection to pick it up.
    let answer = AnswerSlot()
    /// The request headers, read from libmicrohttpd once when they are complete.
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    /// Set once the body passed the cap; later chunks are counted and dropped.
    var bodyTooLarge = false
    var discardedBodyBytes = 0
    /// The body cap of this request: the server's, or the spool's for a spooled upload.
    var bodyLimit = 0
    /// Where a spooled upload is being written (``UploadSpool``); removed on completion.
    var spoolFile: SpoolFile?
    /// Whether this request's body goes to a spool file (it stays true once the file is gone).
    var spooled = false

    // For the access log.
    var method = HTTPMethod(rawValue: "")
    /// As the request line gave it (`HTTP/1.1`).
    var httpVersion = ""
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

/// The handler's answer, handed from the thread that gives it to the MHD thread that sends it.
final class AnswerSlot: Sendable {
    private let answer = Mutex<HTTPAnswer?>(nil)

    func put(_ a: HTTPAnswer) { answer.withLock { $0 = a } }
    /// The answer, built here (on the MHD thread that sends it) if it was given unbuilt.
    func take() -> HTTPResponse? { answer.withLock { $0 }?.response }
}
