/// Which of a ``MultiplexedHTTPClient`` call's requests may start now, so that none waits in
/// libcurl's queue for a connection — there its timeout would run from the moment it was added,
/// and a slow or dead server would time out requests that were never sent.
///
/// Per server (`host:port`): while it is not known to multiplex (before its first answer over
/// HTTP/2, or an HTTP/1 server), one request per connection, at most `maxConnections`; once it
/// is, `maxStreams` on each of them. In all: no more connections than `maxTotalConnections`.
/// A request that may not start is held, in order, behind the earlier held ones of its server;
/// requests to other servers go on meanwhile (a dead push service holds up only its own).
struct ServerAdmission {
    let maxConnections: Int
    let maxStreams: Int
    let maxTotalConnections: Int
    private(set) var inFlight: [String: Int] = [:]
    private var held: [String: [(index: Int, request: HTTPClientRequest)]] = [:]
    private(set) var heldCount = 0

    init(maxConnections: Int, maxStreams: Int, maxTotalConnections: Int) {
        self.maxConnections = maxConnections
        self.maxStreams = maxStreams
        self.maxTotalConnections = maxTotalConnections
    }

    /// Requests in flight to one server at most: one per connection while it is not known to
    /// multiplex, `maxStreams` on each once it is.
    func window(multiplexes: Bool) -> Int { multiplexes ? maxConnections * maxStreams : maxConnections }

    /// Whether one more request to `server` may start now.
    func mayStart(_ server: String, multiplexes: (String) -> Bool) -> Bool {
        let n = inFlight[server, default: 0]
        let many = multiplexes(server)
        guard n < window(multiplexes: many) else { return false }
        let needsConnection = many ? n % maxStreams == 0 : true
        return !needsConnection || connections(multiplexes) < maxTotalConnections
    }

    /// Connections the requests in flight take: one each to a server not known to multiplex, one
    /// per `maxStreams` to one that does.
    func connections(_ multiplexes: (String) -> Bool) -> Int {
        inFlight.reduce(0) { sum, entry in
            sum + (multiplexes(entry.key) ? (entry.value + maxStreams - 1) / maxStreams : entry.value)
        }
    }

    func isHolding(_ server: String) -> Bool { !(held[server]?.isEmpty ?? true) }

    var serversHolding: [String] { held.keys.filter { isHolding($0) } }

    mutating func hold(_ index: Int, _ request: HTTPClientRequest, for server: String) {
        held[server, default: []].append((index, request))
        heldCount += 1
    }

    /// The first held request of `server`.
    mutating func takeHeld(_ server: String) -> (index: Int, request: HTTPClientRequest)? {
        guard isHolding(server) else { return nil }
        heldCount -= 1
        return held[server]!.removeFirst()
    }

    /// Every held request, in no particular order (for a call that must end).
    mutating func takeAllHeld() -> [(index: Int, request: HTTPClientRequest)] {
        defer { held = [:]; heldCount = 0 }
        return held.values.flatMap { $0 }
    }

    mutating func started(_ server: String) { inFlight[server, default: 0] += 1 }

    mutating func finished(_ server: String) {
        let n = inFlight[server, default: 1] - 1
        inFlight[server] = n > 0 ? n : nil
    }
}
