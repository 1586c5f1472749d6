import Dispatch
import Synchronization

/// How a handler answers: exactly once, from any thread, now or later (after a commit, say).
///
/// The libmicrohttpd adapter and ``InProcessHTTPClient`` hand one to the handler and take the
/// response from it, so a handler behaves the same on a socket and in a test. A second answer
/// is a bug in the handler: it is dropped and reported through `onSecondAnswer`.
public final class HTTPResponder: Sendable {
    private struct State {
        var response: HTTPResponse?
        var waiting: [@Sendable (HTTPResponse) -> Void] = []
    }

    private let state = Mutex(State())
    private let onSecondAnswer: @Sendable (HTTPResponse) -> Void

    /// - Parameter onSecondAnswer: called with a response given after the first one.
    public init(onSecondAnswer: @escaping @Sendable (HTTPResponse) -> Void = { _ in }) {
        self.onSecondAnswer = onSecondAnswer
    }

    /// Answers the request. Only the first call counts.
    public func respond(_ response: HTTPResponse) {
        let waiting: [@Sendable (HTTPResponse) -> Void]? = state.withLock { s in
            guard s.response == nil else { return nil }
            s.response = response
            defer { s.waiting = [] }
            return s.waiting
        }
        guard let waiting else { return onSecondAnswer(response) }
        for callback in waiting { callback(response) }
    }

    /// Whether the request has been answered.
    public var hasResponded: Bool { state.withLock { $0.response != nil } }

    /// Calls `callback` with the answer: at once if it is there, else when it comes (on the
    /// thread that answers).
    public func whenAnswered(_ callback: @escaping @Sendable (HTTPResponse) -> Void) {
        let ready: HTTPResponse? = state.withLock { s in
            if let r = s.response { return r }
            s.waiting.append(callback)
            return nil
        }
        if let ready { callback(ready) }
    }

    /// Blocks the calling thread until the answer is there. For threads that may block (an
    /// MHD connection thread, a test); never on Swift's cooperative pool.
    public func waitForAnswer() -> HTTPResponse {
        if let ready = state.withLock({ $0.response }) { return ready }
        let gate = AnswerGate()
        whenAnswered { gate.open($0) }
        return gate.wait()
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
