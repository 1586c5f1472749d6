import Dispatch
import Synchronization

/// How a handler answers: exactly once, from any thread, now or later (after a commit, say).
///
/// The libmicrohttpd adapter and ``InProcessHTTPClient`` hand one to the handler and take the
/// response from it, so a handler behaves the same on a socket and in a test. A second answer
/// is a bug in the handler: it is dropped and reported through `onSecondAnswer`.
public final class HTTPResponder: Sendable {
    private struct State {
        var answer: HTTPAnswer?
        var waiting: [@Sendable (HTTPAnswer) -> Void] = []
    }

    private let state = Mutex(State())
    private let onSecondAnswer: @Sendable (HTTPResponse?) -> Void

    /// - Parameter onSecondAnswer: called with a response given after the first one (nil for
    ///   one given with `respond(building:)`: a dropped answer is not built).
    public init(onSecondAnswer: @escaping @Sendable (HTTPResponse?) -> Void = { _ in }) {
        self.onSecondAnswer = onSecondAnswer
    }

    /// Answers the request. Only the first call counts.
    public func respond(_ response: HTTPResponse) { answer(HTTPAnswer(response)) }

    /// Answers the request with a response that is built only when it is sent, by the thread
    /// that sends it (a libmicrohttpd polling thread): for an answer given on a thread whose
    /// time is precious, such as the database writer's after a commit. Only the first answer
    /// counts; `build` runs at most once.
    public func respond(building build: @escaping @Sendable () -> HTTPResponse) { answer(HTTPAnswer(build)) }

    private func answer(_ answer: HTTPAnswer) {
        let waiting: [@Sendable (HTTPAnswer) -> Void]? = state.withLock { s in
            guard s.answer == nil else { return nil }
            s.answer = answer
            defer { s.waiting = [] }
            return s.waiting
        }
        guard let waiting else { return onSecondAnswer(answer.builtResponse) }
        for callback in waiting { callback(answer) }
    }

    /// Whether the request has been answered.
    public var hasResponded: Bool { state.withLock { $0.answer != nil } }

    /// Calls `callback` with the answer: at once if it is there, else when it comes (on the
    /// thread that answers; a response given with `respond(building:)` is built there).
    public func whenAnswered(_ callback: @escaping @Sendable (HTTPResponse) -> Void) {
        whenAnswered(answer: { callback($0.response) })
    }

    /// Calls `callback` with the answer as given, not yet built.
    func whenAnswered(answer callback: @escaping @Sendable (HTTPAnswer) -> Void) {
        let ready: HTTPAnswer? = state.withLock { s in
            if let a = s.answer { return a }
            s.waiting.append(callback)
            return nil
        }
        if let ready { callback(ready) }
    }

    /// Blocks the calling thread until the answer is there. For threads that may block (an
    /// MHD connection thread, a test); never on Swift's cooperative pool.
    public func waitForAnswer() -> HTTPResponse {
        if let ready = state.withLock({ $0.answer }) { return ready.response }
        let gate = AnswerGate()
        whenAnswered { gate.open($0) }
        return gate.wait()
    }
}

/// An answer: a response, or how to build it (built once, by whoever asks first).
final class HTTPAnswer: Sendable {
    private enum State {
        case built(HTTPResponse)
        case pending(@Sendable () -> HTTPResponse)
    }

    private let state: Mutex<State>

    init(_ response: HTTPResponse) { state = Mutex(.built(response)) }
    init(_ build: @escaping @Sendable () -> HTTPResponse) { state = Mutex(.pending(build)) }

    /// The response if it is built (given built, or asked for already).
    var builtResponse: HTTPResponse? {
        state.withLock { s in
            if case .built(let r) = s { return r }
            return nil
        }
    }

    var response: HTTPResponse {
        state.withLock { s in
            switch s {
            case .built(let r): return r
            case .pending(let build):
                let r = build()
                s = .built(r)
                return r
            }
        }
    }
}

/// A one-shot hand-over from the answering thread to a waiting one.
private final class AnswerGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let response = Mutex<HTTPResponse?>(nil)

    func open(_ r: HTTPResponse) {
        response.withLock { $0 = r }
        semaphore.signal()
    }

    func wait() -> HTTPResponse {
        semaphore.wait()
        return response.withLock { $0! }
    }
}
