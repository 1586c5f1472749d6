import Dispatch

extension HTTPClient {
    /// Sends `request` without blocking a Swift concurrency thread: the transfer runs on a
    /// dedicated dispatch queue (whose threads may block), and the caller is resumed with the
    /// result. Cancelling the awaiting task aborts the transfer within about a second
    /// (libcurl's progress callback) with ``HTTPClientError/Kind/cancelled``.
    ///
    /// - Returns: The response, whatever its status.
    /// - Throws: ``HTTPClientError``, as the blocking `send(_:)`.
    public func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        let cancellation = CancellationFlag()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPClientResponse, HTTPClientError>, Never>) in
                Self.blockingQueue.async {
                    continuation.resume(returning: Result { () throws(HTTPClientError) in
                        try self.send(request, cancellation: cancellation)
                    })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    /// Blocking transfers must not occupy the cooperative pool (one thread per core, shared
    /// by every task). A queue created with a label is backed by libdispatch's overcommitting
    /// root queue, which adds a thread when its work items block instead of queueing behind
    /// them.
    private static let blockingQueue = DispatchQueue(label: "HTTPClient.blocking", attributes: .concurrent)
}
