import CMHDShims
import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The state libmicrohttpd's callbacks reach through their `cls` pointer, and the request
/// life cycle they drive. Shared by all MHD threads, so everything here is immutable,
/// atomic, or internally locked.
final class ServerCore: Sendable {
    typealias Handler = @Sendable (HTTPRequest, HTTPResponder) -> Void

    let maxBodyBytes: Int
    let spool: UploadSpool?
    let handler: Handler
    /// Requests handled on the polling thread (``HTTPServerConfiguration/runsOnPollingThread``).
    let runsOnPollingThread: (@Sendable (HTTPRequest) -> Bool)?
    /// The application's answer to the server's own refusals (``HTTPServerConfiguration/refusalResponse``).
    let refusalResponse: (@Sendable (HTTPServerRefusal) -> HTTPResponse?)?
    let accessLog: (@Sendable (HTTPAccessLogEntry) -> Void)?
    let diagnostics: (@Sendable (String) -> Void)?
    let inFlight = InFlightCounter()
    /// Set by `stop`; responses then carry `Connection: close` so keep-alive clients leave.
    let isStopping = Atomic<Bool>(false)
    /// Runs the handlers, so MHD's polling threads never block.
    let pool: HandlerPool
    /// Deadlines, per-IP caps and room under a flood.
    let guardian: ConnectionGuard
    /// Requests with their handler, by request ID: answered with 503 if the server stops first.
    private let outstanding = Mutex<[String: HTTPResponder]>([:])
    /// Whether MHD still runs (a resume after `MHD_stop_daemon` would touch freed memory) and
    /// which connections are suspended now: `markStopped` resumes those, since MHD aborts the
    /// process when it stops with a connection left suspended.
    private let suspensions = Mutex(Suspensions())

    private struct Suspensions {
        var running = true
        var connections: [UInt: SuspendedConnection] = [:]
    }

    init(
        maxBodyBytes: Int,
        spool: UploadSpool? = nil,
        handlerThreads: Int,
        runsOnPollingThread: (@Sendable (HTTPRequest) -> Bool)? = nil,
        refusalResponse: (@Sendable (HTTPServerRefusal) -> HTTPResponse?)? = nil,
        limits: ConnectionGuard.Limits,
        handler: @escaping Handler,
        accessLog: (@Sendable (HTTPAccessLogEntry) -> Void)?,
        diagnostics: (@Sendable (String) -> Void)?
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.spool = spool
        self.handler = handler
        self.runsOnPollingThread = runsOnPollingThread
        self.refusalResponse = refusalResponse
        self.accessLog = accessLog
        self.diagnostics = diagnostics
        pool = HandlerPool(threads: handlerThreads, name: "http-handler")
        guardian = ConnectionGuard(limits: limits)
    }

    // MARK: - Request life cycle

    /// URI log callback: a request line has arrived. Returns the retained context that MHD
    /// passes back as `*req_cls`.
    func requestStarted(rawTarget: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer {
        let bytes = rawTarget.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
        inFlight.increment()
        return Unmanaged.passRetained(ConnectionState(rawTarget: bytes)).toOpaque()
    }

    /// Completion callback: the response was sent, or the connection ended. Balances
    /// `requestStarted`.
    func requestCompleted(_ connection: OpaquePointer?, _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                          termination: MHD_RequestTerminationCode) {
        guard let slot, let raw = slot.pointee else { return }
        slot.pointee = nil
        let context = Unmanaged<ConnectionState>.fromOpaque(raw).takeRetainedValue()
        context.spoolFile?.remove()   // a connection that ended before its answer
        context.spoolFile = nil
        if let connection { guardian.answered(Self.key(connection)) }
        if let status = context.status, let accessLog {
            accessLog(HTTPAccessLogEntry(
                method: context.method,
                path: context.logPath,
                status: status,
                durationSeconds: Self.seconds(ContinuousClock.now - context.started),
                bodyBytes: context.responseBodyBytes,
                clientAddress: context.clientAddress,
                requestID: context.requestID,
                completed: termination == .REQUEST_TERMINATED_COMPLETED_OK))
        }
        inFlight.decrement()
    }

    /// The access handler, called several times per request: once when the headers are
    /// parsed, once per body chunk, then a final time with `*upload_data_size == 0`, when
    /// the response is queued. Only then, because "The response cannot be queued when this
    /// callback is called to process the client upload data" (microhttpd.h).
    func access(
        connection: OpaquePointer,
        method: UnsafePointer<CChar>?,
        url: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        if slot.pointee == nil {
            // Only if MHD skipped the URI log callback; `url` is then already unescaped.
            slot.pointee = requestStarted(rawTarget: url)
        }
        guard let raw = slot.pointee else { return .NO }
        let context = Unmanaged<ConnectionState>.fromOpaque(raw).takeUnretainedValue()

        switch context.phase {
        case .awaitingHeaders:
            context.phase = .receivingBody
            context.connectionKey = Self.key(connection)
            context.headers = MHDRequestHeaders.read(from: connection)
            guardian.headersReceived(context.connectionKey)
            context.method = HTTPMethod(rawValue: method.map { String(cString: $0) } ?? "")
            context.httpVersion = version.map { String(cString: $0) } ?? ""
            context.clientAddress = SocketAddress.ipString(ht_mhd_client_address(connection))
            context.bodyLimit = maxBodyBytes
            if let refusal = framingRefusal(connection, context) { return queue(refusal, on: connection, for: context) }
            if let spool, let refusal = startSpool(spool, connection, context) { return queue(refusal, on: connection, for: context) }
            if shouldRejectBodyUpFront(connection, context) {
                return queue(tooLargeResponse(connection, context), on: connection, for: context)
            }
            return .YES

        case .receivingBody:
            let size = uploadSize.pointee
            if size > 0 {
                guardian.bodyReceived(context.connectionKey, bytes: size)
                receiveChunk(uploadData, size: size, into: context)
                // The chunk is only valid during this call, hence the copy above.
                // "the method must update this value to the number of bytes NOT processed"
                uploadSize.pointee = 0
                return context.discardedBodyBytes > Self.discardLimit(context) ? .NO : .YES
            }
            if context.bodyTooLarge { return queue(tooLargeResponse(connection, context), on: connection, for: context) }
            if context.spoolFile?.failed == true {
                return queue(refusal(.serviceUnavailable, "unavailable", "The upload could not be stored; try again later.", connection, context),
                             on: connection, for: context)
            }
            switch request(from: connection, context) {
            case .refused(let refusal): return queue(refusal, on: connection, for: context)
            case .built(let request): return dispatch(request, on: connection, context)
            }

        case .withHandler:
            // Called again after MHD_resume_connection: the answer is there.
            guard let response = context.answer.take() else {
                // Not answered yet (a spurious call): wait again, unless MHD is about to stop.
                return suspendUnlessStopping(connection, context) ? .YES : queue(stoppingResponse(connection, context), on: connection, for: context)
            }
            return queue(response, on: connection, for: context)

        case .responded:
            // A response went out before the body (413 on Content-Length); MHD may still
            // hand us the body of methods other than POST/PUT. Swallow it.
            uploadSize.pointee = 0
            return .YES
        }
    }

    // MARK: - Body

    /// Past this many body bytes we stop being polite: the connection is dropped instead of
    /// reading on just to be able to send a 413.
    static func discardLimit(_ context: ConnectionState) -> Int {
        context.spooled ? context.bodyLimit + (1 << 20) : max(context.bodyLimit * 4, 1 << 20)
    }

    /// A route that spools (``UploadSpool``): the file to write to, or the answer to give at once.
    private func startSpool(_ spool: UploadSpool, _ connection: OpaquePointer, _ context: ConnectionState) -> HTTPResponse? {
        guard case .success(let target) = context.target else { return nil }
        switch spool.decide(context.method, target.path, context.headers) {
        case .buffer: return nil
        case .bufferUpTo(let limit):
            context.bodyLimit = limit
            return nil
        case .refuse(let response): return response
        case .spool:
            guard let file = SpoolFile(directory: spool.directory) else {
                diagnostics?("cannot create a spool file in \(spool.directory): \(String(cString: strerror(errno)))")
                return refusal(.serviceUnavailable, "unavailable", "The upload could not be stored; try again later.", connection, context)
            }
            context.spoolFile = file
            context.spooled = true
            context.bodyLimit = spool.maxBytes
            guardian.extendBodyDeadline(context.connectionKey, by: .milliseconds(Int64(spool.bodyTimeoutSeconds * 1000)))
            return nil
        }
    }

    private func receiveChunk(_ data: UnsafePointer<CChar>?, size: Int, into context: ConnectionState) {
        if let file = context.spoolFile, !context.bodyTooLarge {
            if file.written + size <= context.bodyLimit, let data {
                file.write(data, count: size)
                return
            }
            file.remove()
            context.spoolFile = nil
            context.bodyTooLarge = true
            context.discardedBodyBytes = file.written + size
            return
        }
        if !context.bodyTooLarge, context.body.count + size <= context.bodyLimit, let data {
            context.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
            return
        }
        if !context.bodyTooLarge {
            context.bodyTooLarge = true
            context.discardedBodyBytes = context.body.count
            context.body = []
        }
        context.discardedBodyBytes += size
    }

    // MARK: - Handler

    /// Builds the `HTTPRequest`, or the 400 for a request we cannot represent (the handler
    /// never sees it).
    private enum Built { case built(HTTPRequest), refused(HTTPResponse) }

    private func request(from connection: OpaquePointer, _ context: ConnectionState) -> Built {
        let target: RequestTarget
        do {
            target = try context.target.get()
        } catch {
            // `invalid_value` is the product's code for a malformed request part (here: the path).
            return .refused(refusal(.badRequest, "invalid_value", error.message, connection, context))
        }
        context.logPath = target.path
        var request = HTTPRequest(
            method: context.method,
            path: target.path,
            rawPath: target.rawPath,
            rawQuery: target.rawQuery,
            query: target.query,
            headers: context.headers,
            body: context.body,
            clientAddress: context.clientAddress,
            requestID: context.requestID)
        context.body = []
        context.spoolFile?.finish()
        request.bodyFile = context.spoolFile?.path
        request.transport = self
        return .built(request)
    }

    /// Suspends the connection and hands the request to a handler thread (or, for the requests
    /// `runsOnPollingThread` picks, runs the handler here); the answer, whenever and from
    /// whichever thread it comes, is parked in the context and the connection resumed, so no
    /// thread waits for it. MHD then calls `access` again (`.withHandler`).
    ///
    /// A request that completes while the server stops (a kept-alive client sending just then)
    /// is answered 503 at once: "You must explicitly resume all connections before stopping
    /// the daemon" (microhttpd.h) — MHD aborts the process on a connection left suspended.
    private func dispatch(_ request: HTTPRequest, on connection: OpaquePointer, _ context: ConnectionState) -> MHD_Result {
        context.phase = .withHandler
        guardian.dispatched(context.connectionKey)
        guard suspendUnlessStopping(connection, context) else { return queue(stoppingResponse(connection, context), on: connection, for: context) }
        let responder = HTTPResponder(onSecondAnswer: { [diagnostics] response in
            diagnostics?("handler answered twice; the second answer (\(response.map { "status \($0.status.rawValue)" } ?? "not built")) was dropped")
        })
        let id = request.requestID
        outstanding.withLock { $0[id] = responder }
        let key = context.connectionKey
        let answer = context.answer
        responder.whenAnswered(answer: { [self] response in
            answer.put(response)
            outstanding.withLock { _ = $0.removeValue(forKey: id) }
            resume(key)
        })
        let handler = self.handler
        let picked = request
        if runsOnPollingThread?(picked) == true {
            // Answers later from another thread (or now, which resumes the connection at once).
            handler(picked, responder)
        } else if !pool.submit({ [picked] in handler(picked, responder) }) {
            // The handlers stopped taking work (`answerOutstanding` ran, or is running: whoever
            // takes the responder out of `outstanding` answers it, so it is answered once).
            if outstanding.withLock({ $0.removeValue(forKey: id) }) != nil { responder.respond(Self.stoppingResponse()) }
        }
        return .YES
    }

    /// Suspends the connection unless MHD is about to stop, and notes it as suspended; under the
    /// lock `markStopped` takes, so once it has run nothing is suspended.
    private func suspendUnlessStopping(_ connection: OpaquePointer, _ context: ConnectionState) -> Bool {
        suspensions.withLock { s in
            guard s.running else { return false }
            MHD_suspend_connection(connection)
            s.connections[context.connectionKey] = SuspendedConnection(connection)
            return true
        }
    }

    /// Resumes the connection if it is still suspended (`markStopped` may have resumed it).
    private func resume(_ key: UInt) {
        suspensions.withLock { s in
            guard s.running, let connection = s.connections.removeValue(forKey: key) else { return }
            MHD_resume_connection(connection.pointer)
        }
    }

    /// Answers every request still with its handler (or queued for one) with 503, so their
    /// connections resume and can be closed; for `stop` after its grace period.
    func answerOutstanding() {
        pool.close()
        let left = outstanding.withLock { o in defer { o = [:] }; return Array(o.values) }
        for responder in left { responder.respond(Self.stoppingResponse()) }
    }

    /// MHD is about to stop: every connection still suspended is resumed now — a request that
    /// reached its handler after `answerOutstanding` and whose answer has not come (a handler
    /// that answers later from another thread) — and none is suspended or resumed after. A
    /// resumed connection finds no answer and gets the stopping 503 (`access`, `.withHandler`),
    /// or is closed by `MHD_stop_daemon`, which first processes pending resumes.
    func markStopped() {
        suspensions.withLock { s in
            s.running = false
            for connection in s.connections.values { MHD_resume_connection(connection.pointer) }
            s.connections = [:]
        }
    }

    static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// A suspended connection's pointer, carried to the thread that resumes it. MHD allows
/// `MHD_resume_connection` from any thread.
private struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

extension ServerCore: HTTPTransportStatus {
    var connectionStatistics: HTTPConnectionStatistics {
        let c = guardian.snapshot
        return HTTPConnectionStatistics(open: c.open, refusedPerIP: c.refusedPerIP, closedHeaderDeadline: c.closedHeaderDeadline,
                                        closedBodyDeadline: c.closedBodyDeadline, evicted: c.evicted,
                                        evictedSlowBody: c.evictedSlowBody)
    }
    var inFlightRequests: Int { inFlight.value }
    var queuedRequests: Int { pool.waiting }
}
