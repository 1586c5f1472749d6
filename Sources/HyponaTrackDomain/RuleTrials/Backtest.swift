import Dispatch
import Synchronization
import HyponaTrackCore
import SQLite

/// `POST /v1/rules/backtest`, `hyponatrack rules backtest`: candidate rules, and which days.
public struct BacktestRequest: Sendable {
    public var candidate: RuleTexts
    public var from: LocalDate?
    public var to: LocalDate?
    /// The `?site=` filter as asked (for the audit row); `scope` is what it leaves.
    public var site: String?
    /// The patients replayed (`?site=CODE` narrows it to that site's).
    public var scope: SiteScope
    public var actor: String

    public init(candidate: RuleTexts, from: LocalDate? = nil, to: LocalDate? = nil, site: String? = nil, scope: SiteScope = .allSites,
                actor: String) {
        self.candidate = candidate
        self.from = from
        self.to = to
        self.site = site
        self.scope = scope
        self.actor = actor
    }
}

/// What a backtest found: the candidate's version and the live-versus-candidate comparison.
public struct BacktestResult: Sendable, Equatable {
    public var candidateVersion: String
    public var from: LocalDate?
    public var to: LocalDate?
    public var comparison: RuleComparison
    /// Compared days whose level is the same but whose reason codes differ.
    public var reasonsChangedDays: Int
}

/// Replays every stored patient-day through the pure core under candidate rules as the live
/// evaluation saw it at the day's last evaluation: the same profile and the same days (every
/// change to a day re-evaluates it and the two after it, so the stored days are what its last
/// evaluation read). Reads only, a slice of patients at a time, the slice's evaluations spread
/// over the machine's cores.
enum Backtest {
    /// Patients per read (a few thousand days each time: bounded memory, few queries).
    static let slice: Int64 = 2000

    static func run(_ db: Connection, candidate: ActiveRules.Snapshot, liveVersion: String, patients: [PatientRecord],
                    query: OutcomeReportQuery, lookback: Int, today: (PatientRecord) -> LocalDate) throws -> (RuleComparison, Int) {
        var builder = RuleComparisonBuilder(lookback: lookback)
        var reasonsChanged = 0
        let byId = Dictionary(uniqueKeysWithValues: patients.map { ($0.id, $0) })
        let outcomes = try OutcomeRepository.byPatient(db)
        // Study-ID order for the changed days' list; slices by row id for the reads.
        let order = Dictionary(uniqueKeysWithValues: patients.enumerated().map { ($1.id, $0) })
        var replayed: [(Int, PatientRecord, [RuleComparisonBuilder.Day], Int, Int)] = []
        guard let low = patients.map(\.id).min(), let high = patients.map(\.id).max() else {
            return (builder.build(liveVersion: liveVersion, otherVersion: candidate.rules.version), 0)
        }
        var start = low
        while start <= high {
            let range = start...min(high, start + slice - 1)
            start = range.upperBound + 1
            let days = try DayRepository.load(db, patients: range)
            let stored = try EvaluationRepository.latestLevels(db, patients: range, liveVersion: liveVersion, withReasons: true)
            let slicePatients = stored.keys.compactMap { byId[$0] }
            let results = replay(slicePatients, days: days, stored: stored, candidate: candidate, query: query)
            for (i, p) in slicePatients.enumerated() {
                replayed.append((order[p.id] ?? 0, p, results[i].days, results[i].otherRules, results[i].reasonsChanged))
            }
        }
        for (_, p, days, otherRules, changed) in replayed.sorted(by: { $0.0 < $1.0 }) {
            builder.daysUnderOtherRules += otherRules
            reasonsChanged += changed
            let episodes = (outcomes[p.id] ?? []).filter(\.isEpisode).map(\.date)
            builder.add(studyId: p.studyId, days: days, episodes: episodes.filter(query.contains), allEpisodes: episodes, today: today(p))
        }
        return (builder.build(liveVersion: liveVersion, otherVersion: candidate.rules.version), reasonsChanged)
    }

    struct Replayed: Sendable {
        var days: [RuleComparisonBuilder.Day] = []
        var otherRules = 0
        var reasonsChanged = 0
    }

    /// Each patient's stored days under the live rules replayed under the candidate, in parallel.
    static func replay(_ patients: [PatientRecord], days: [Int64: [DailyEntry]], stored: [Int64: [(date: LocalDate, day: StoredDayLevel)]],
                       candidate: ActiveRules.Snapshot, query: OutcomeReportQuery) -> [Replayed] {
        let out = ResultSlots<Replayed>(count: patients.count)
        DispatchQueue.concurrentPerform(iterations: patients.count) { i in
            let p = patients[i]
            let all = days[p.id] ?? []
            let assessment = candidate.engine.risk.assess(p.profile)
            var r = Replayed()
            var first = 0   // the first of `all` on or after the date's day − 2 (both in date order)
            for (date, s) in stored[p.id] ?? [] where query.contains(date) {
                guard s.underLiveRules else { r.otherRules += 1; continue }
                // The day and the two before it: all the engine reads, as the live evaluation did.
                let from = date.adding(days: -2)
                while first < all.count && all[first].date < from { first += 1 }
                var last = first
                while last < all.count && all[last].date <= date { last += 1 }
                let e = candidate.engine.evaluate(profile: p.profile, days: Array(all[first..<last]), date: date, assessment: assessment)
                if e.level == s.level && e.reasonCodes != s.reasons { r.reasonsChanged += 1 }
                r.days.append(.init(date: date, pod: s.pod, live: s.level, other: e.level, otherReasons: e.reasonCodes))
            }
            out.set(i, r)
        }
        return out.values
    }
}

/// One result per index, filled from several threads (`DispatchQueue.concurrentPerform`).
final class ResultSlots<T: Sendable>: Sendable {
    private let slots: Mutex<[T?]>

    init(count: Int) { slots = Mutex([T?](repeating: nil, count: count)) }

    func set(_ index: Int, _ value: T) { slots.withLock { $0[index] = value } }

    /// Every slot, once all are set.
    var values: [T] { slots.withLock { $0.map { $0! } } }
}
