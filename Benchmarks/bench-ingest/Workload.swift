import Synchronization

/// The enrolled patients, handed out one at a time to whichever client needs a fresh one.
///
/// The shape of the data is part of what is measured: a submission's cost in the daemon grows
/// with what the day (and the two before it, which the rules read) already holds. A real
/// patient's app sends a handful of submissions per day, so each client fills one patient's
/// days in calendar order, `perDay` submissions each, then takes a new patient. If the pool
/// runs out it starts again from the first patient (days then grow beyond `perDay`), and
/// `wrapped` says so in the report.
final class PatientPool: Sendable {
    let sessions: [PatientSession]
    private let next = Atomic<Int>(0)

    init(_ sessions: [PatientSession]) {
        precondition(!sessions.isEmpty, "empty patient pool")
        self.sessions = sessions
    }

    /// The next unused patient (round-robin once all were used).
    func take() -> PatientSession {
        sessions[next.wrappingAdd(1, ordering: .relaxed).oldValue % sessions.count]
    }

    /// How many patients were handed out so far (more than `sessions.count` after a wrap).
    var handedOut: Int { next.load(ordering: .relaxed) }
    var wrapped: Bool { handedOut > sessions.count }
}

/// What a client sends next (one request's bytes).
protocol RequestSource: Sendable {
    mutating func next() -> [UInt8]
}

/// The same request every time (the floor probes: `/healthz`, a patient's read).
struct FixedRequest: RequestSource {
    let bytes: [UInt8]
    func next() -> [UInt8] { bytes }
}

/// One client's position in the workload: its current patient, date and count on that date.
/// Each request carries one new symptom entry with a unique id, plus the morning weight and
/// fluid intake (scalars that are simply set again).
struct ClientCursor: RequestSource {
    let pool: PatientPool
    /// The dates to fill, in calendar order.
    let dates: [String]
    let perDay: Int
    /// Prefix of the symptom ids, unique per client and run.
    let idPrefix: String
    private var patient: PatientSession
    private var dateIndex = 0
    private var onDate = 0
    private var sequence = 0

    init(pool: PatientPool, dates: [String], perDay: Int, idPrefix: String) {
        self.pool = pool
        self.dates = dates
        self.perDay = perDay
        self.idPrefix = idPrefix
        patient = pool.take()
    }

    /// The bytes of the next request.
    mutating func next() -> [UInt8] {
        if onDate == perDay {
            onDate = 0
            dateIndex += 1
            if dateIndex == dates.count {
                dateIndex = 0
                patient = pool.take()
            }
        }
        onDate += 1
        sequence += 1
        let date = dates[dateIndex]
        let body = """
            {"weightMorningKg":80.4,"fluidIntakeMl":1200,"symptoms":[{"id":"\(idPrefix)-\(sequence)",\
            "time":"\(date)T08:00:00+01:00","slot":"morning","nausea":0,"headache":1,"fatigue":1,\
            "confusion":0,"muscleCramps":0,"vas":8}]}
            """
        return HTTPConnection.encode("PUT", "/v1/me/days/\(date)",
                                     headers: [("Authorization", "Bearer \(patient.token)"),
                                               ("Content-Type", "application/json")],
                                     body: Array(body.utf8))
    }
}
