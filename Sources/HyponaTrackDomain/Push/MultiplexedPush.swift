import HTTPClient

/// The part every push service shares: many pushes in flight at once through one
/// ``MultiplexedHTTPClient`` (HTTP/2 streams where the service speaks it, else up to its
/// connection limit of HTTP/1.1 requests at a time), each answer mapped to an outcome as it
/// arrives, and one renewal of the service's credential per call when it refuses it (APNs's
/// provider token, FCM's access token): the refused pushes, and those in flight with the old
/// credential that come back refused too, go again once with the new.
///
/// A transport says how to build one request (`prepare`, with the current credential), which
/// answers refuse the credential, how to make it again, and what an answer means.
struct MultiplexedPush {
    /// Builds the request for an item, or the outcome it has without being sent (a refused
    /// address, a credential that cannot be had).
    var prepare: (PushItem) -> Result<HTTPClientRequest, Refused>
    /// Whether an answer refuses the credential (a renewal may cure it).
    var refusesCredential: (HTTPClientResponse) -> Bool = { _ in false }
    /// Makes the credential again; nil when it worked, else the outcome of every push waiting for it.
    var renew: () -> PushSendResult? = { nil }
    /// What an answer means.
    var outcome: (HTTPClientResponse) -> PushSendResult
    /// Names the service in a failure that had no answer (a timeout, a refused connection).
    var service: String

    /// libcurl's passes over the in-flight streams at most every 5 ms: with 400 streams a pass per
    /// arriving answer cost more than the pushes (`bench-push`: the daemon's CPU for 20,000
    /// pushes fell from 12.3 to 6.1 s; an answer waits up to 5 ms longer, a push has no hurry;
    /// 10 ms saved nothing more).
    static let performInterval: Duration = .milliseconds(5)

    /// A client for one push service: at most 4 connections to each host, 100 streams on each
    /// (4 requests at a time to a host that speaks only HTTP/1.1); 4 connections in all, or 32
    /// for Web Push (`manyHosts`: each browser vendor's service is its own host). `configuration`
    /// is copied with HTTP/2 on; the body size cap, timeouts and CA are its own.
    static func client(_ configuration: HTTPClientConfiguration, manyHosts: Bool = false) -> MultiplexedHTTPClient {
        MultiplexedHTTPClient(configuration: configuration, maxConnections: 4, maxStreams: 100, maxTotalConnections: manyHosts ? 32 : 4,
                              performInterval: performInterval)
    }

    struct Refused: Error {
        let result: PushSendResult
    }

    /// Sends what `next` gives through `client` until it gives nil with nothing in flight, and
    /// calls `done` with each item's number and outcome (on the calling thread).
    func stream(_ client: MultiplexedHTTPClient, next: () -> (Int, PushItem)?, done: (Int, PushSendResult) -> Void) {
        var again: [(Int, PushItem)] = [], inFlight: [Int: PushItem] = [:], resent: Set<Int> = []
        var renewed = false, renewalFailure: PushSendResult?
        client.stream(next: { () -> (Int, HTTPClientRequest)? in
            while let (i, item) = again.isEmpty ? next() : Optional(again.removeFirst()) {
                switch prepare(item) {
                case .success(let request):
                    inFlight[i] = item
                    return (i, request)
                case .failure(let refused): done(i, refused.result)
                }
            }
            return nil
        }, completion: { i, answer in
            let item = inFlight.removeValue(forKey: i)
            switch answer {
            case .failure(let error): done(i, .retry("\(service): \(error.kind.summary): \(error.detail)", afterSeconds: nil))
            case .success(let response):
                guard refusesCredential(response), let item, resent.insert(i).inserted else { return done(i, outcome(response)) }
                if !renewed {
                    renewed = true
                    renewalFailure = renew()
                }
                if let renewalFailure { return done(i, renewalFailure) }
                again.append((i, item))
            }
        })
    }

    /// One push through `stream`.
    func send(_ client: MultiplexedHTTPClient, _ message: PushMessage, to address: PushAddress) -> PushSendResult {
        var result = PushSendResult.failed("not sent")
        var given = false
        stream(client, next: { () -> (Int, PushItem)? in
            defer { given = true }
            return given ? nil : (0, PushItem(message: message, address: address))
        }) { _, r in result = r }
        return result
    }
}
