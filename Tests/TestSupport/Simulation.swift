import Foundation
import Synchronization
import HTJSON
import SQLite
import HyponaTrackCore
import HyponaTrackKit
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

// Fortnight simulations of the scheduler (docs/clinical-rules.md §7–§8), in process: the
// real services, alerting and scheduler over a real SQLite database, driven by a settable clock.
// Days are lived by setting the clock, calling the services as the API would, and calling
// `scheduler.tick(now:)` on a grid of simulated minutes. What the scheduler decided is read back
// from `hook_outbox` (`reminder.due` to the subscribed hook, alert events to the ladder's hooks)
// and `alerts`. Expected instants are computed independently (Foundation's calendar, or written
// out in UTC on DST days).

/// A clock the test sets.
final class SimulationClock: ServerClock {
    private let value: Mutex<Double>
    init(_ t: Double) { value = Mutex(t) }
    func now() -> Double { value.withLock { $0 } }
    func set(_ t: Double) { value.withLock { $0 = t } }
}

/// Berlin wall-clock instants, computed with Foundation (not with the code under test).
enum Berlin {
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    /// Epoch seconds of `date` `HH:MM` in Berlin (days without a DST change only).
    static func at(_ date: String, _ time: String) -> Double {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let d = date.split(separator: "-").map { Int($0)! }, t = time.split(separator: ":").map { Int($0)! }
        return cal.date(from: DateComponents(year: d[0], month: d[1], day: d[2], hour: t[0], minute: t[1]))!.timeIntervalSince1970
    }

    /// Epoch seconds of an ISO 8601 instant with an offset or Z.
    static func instant(_ iso: String) -> Double {
        ISO8601DateFormatter().date(from: iso)!.timeIntervalSince1970
    }

    static func day(_ date: String, _ offset: Int) -> String { LocalDate(date)!.adding(days: offset).description }

    static func ms(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }
}

/// One queued hook event (a `hook_outbox` row).
struct QueuedEvent: CustomStringConvertible {
    let row: Int64
    let eventId: String
    let hook: String
    let type: String
    let data: JSONObject
    let createdAt: Int64

    var studyId: String? { if case .string(let s)? = data["studyId"] { s } else { nil } }
    var alertId: Int? { if case .number(let n)? = data["alertId"] { Int(n) } else { nil } }
    var tier: Int? { if case .number(let n)? = data["tier"] { Int(n) } else { nil } }
    var level: String? { if case .string(let s)? = data["level"] { s } else { nil } }
    func string(_ key: String) -> String? { if case .string(let s)? = data[key] { s } else { nil } }
    var tasks: [String] {
        guard case .array(let items)? = data["tasks"] else { return [] }
        return items.compactMap { if case .string(let s) = $0 { s } else { nil } }.sorted()
    }
    var description: String {
        "\(type)→\(hook) \(studyId ?? "") \(string("date") ?? "") \(string("at") ?? "") \(string("kind") ?? "") \(tasks) at \(iso8601UTC(milliseconds: createdAt))"
    }
}

/// One alert row.
struct StoredAlert: CustomStringConvertible {
    let id: Int64
    let studyId: String
    let date: String
    let kind: String
    let level: String
    let state: String
    let openedAt: Int64
    var description: String { "#\(id) \(studyId) \(date) \(kind) \(level) \(state) opened \(iso8601UTC(milliseconds: openedAt))" }
}

/// The server's moving parts over one database, with a settable clock and a tick grid.
final class Simulation {
    /// The repository (this file is Tests/HyponaTrackServerTests/Support/Simulation.swift).
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let hooks: [HookConfiguration] = ["ward", "oncall", "lead"].map {
        HookConfiguration(name: $0, kind: .webhook(url: "http://127.0.0.1:9/\($0)", secretFile: "/nonexistent", caFile: nil), events: [])
    } + [HookConfiguration(name: "gateway", kind: .command(path: "/bin/true", args: [], timeoutSeconds: 5), events: [.reminderDue])]
    /// Red: ward at once, on-call after 15 min, study lead after 45 min; yellow: ward.
    static let ladder = EscalationLadder(
        red: [.init(afterMinutes: 0, hooks: ["ward"]), .init(afterMinutes: 15, hooks: ["oncall"]), .init(afterMinutes: 45, hooks: ["lead"])],
        yellow: [.init(afterMinutes: 0, hooks: ["ward"])])

    let directory: URL
    let database: Database
    let rules: ActiveRules
    let clock: SimulationClock
    let ladder: EscalationLadder
    let service: StudyService
    let activation: ActivationService
    let zone = ZoneRules(identifier: "Europe/Berlin")!
    private(set) var alerting: Alerting
    private(set) var scheduler: Scheduler
    /// Seconds between ticks; ticks fall on multiples of it (UTC), so on whole local minutes.
    let step: Double
    private var nextTick: Double
    private(set) var ticks = 0

    /// - Parameter reminders: edits `config/reminders.json` for this simulation.
    init(start: Double, step: Double = 900, ladder: EscalationLadder = Simulation.ladder,
         reminders: ((inout JSONObject) -> Void)? = nil) throws {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        directory = base.appendingPathComponent("htsim-\(UUID().uuidString)")
        let rulesDir = directory.appendingPathComponent("rules")
        try FileManager.default.createDirectory(at: rulesDir, withIntermediateDirectories: true)
        for name in RuleSet.fileNames {
            let source = Self.repo.appendingPathComponent("config").appendingPathComponent(name)
            let target = rulesDir.appendingPathComponent(name)
            if name == "reminders.json", let reminders {
                try Self.writeReminders(to: target, reminders)
            } else {
                try FileManager.default.copyItem(at: source, to: target)
            }
        }
        let rules = ActiveRules(rules: try RulesLoader.load(directory: rulesDir))
        self.rules = rules
        database = try Database(directory: directory.appendingPathComponent("data"))
        clock = SimulationClock(start)
        self.ladder = ladder
        self.step = step
        nextTick = (start / step).rounded(.up) * step
        var configuration = ServerConfiguration(baseDirectory: rulesDir, dataDirectory: directory.appendingPathComponent("data"))
        configuration.hooks = Self.hooks
        configuration.escalation = ladder
        let alerting = Self.makeAlerting(ladder, rules)
        self.alerting = alerting
        scheduler = Self.makeScheduler(database, rules, alerting)
        service = StudyService(database: database, rules: rules, clock: clock, configuration: configuration, metrics: Metrics(),
                               outbox: nil, alerting: alerting, hooksWake: {})
        activation = ActivationService(database: database, clock: clock, configuration: configuration, rules: rules)
    }

    deinit {
        database.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The shipped `config/reminders.json` with `edit` applied, written to `target`.
    static func writeReminders(to target: URL, _ edit: (inout JSONObject) -> Void) throws {
        let source = repo.appendingPathComponent("config").appendingPathComponent("reminders.json")
        guard case .object(var o) = try JSONParser.parse([UInt8](try Data(contentsOf: source))) else { throw CocoaError(.fileReadCorruptFile) }
        edit(&o)
        try JSONSerializer.string(.object(o), pretty: true).write(to: target, atomically: true, encoding: .utf8)
    }

    static func makeAlerting(_ ladder: EscalationLadder, _ rules: ActiveRules) -> Alerting {
        Alerting(ladder: ladder, hooks: hooks) { patient in rules.snapshot.engine.risk.assess(patient.profile).riskClass.rawValue }
    }

    static func makeScheduler(_ database: Database, _ rules: ActiveRules, _ alerting: Alerting) -> Scheduler {
        Scheduler(database: database, rules: rules, alerting: alerting, hooks: hooks, logger: Logger(minimum: .error, capture: { _ in }))
    }

    /// A "restart": a new Alerting and Scheduler over the same database (nothing kept in memory).
    func restart() {
        alerting = Self.makeAlerting(ladder, rules)
        scheduler = Self.makeScheduler(database, rules, alerting)
    }

    // MARK: time

    /// Ticks every grid point up to and including `t`, then sets the clock to `t`.
    func run(to t: Double) throws {
        while nextTick <= t {
            clock.set(nextTick)
            try scheduler.tick(now: nextTick)
            ticks += 1
            nextTick += step
        }
        clock.set(t)
    }

    /// Runs to `t`, then does `action` at `t` (after that instant's tick).
    func at(_ t: Double, _ action: () throws -> Void) throws {
        try run(to: t)
        try action()
    }

    /// Downtime: no ticks until `t`.
    func skip(to t: Double) {
        nextTick = (t / step).rounded(.up) * step
        clock.set(t)
    }

    /// One extra tick now (as a second pass at the same instant would).
    func tickAgain() throws { try scheduler.tick(now: clock.now()) }

    // MARK: study operations

    static func profile(_ studyId: String, surgery: String, _ extra: [(String, JSONValue)]) -> JSONValue {
        var o = JSONObject([("studyId", .string(studyId)), ("surgeryDate", .string(surgery)), ("timeZone", "Europe/Berlin"),
                            ("age", 50), ("sex", "male"), ("bmi", 27.0), ("baselineWeightKg", 80.0), ("fluidLimitMl", 1500.0),
                            ("baselineReactionTimeMs", 600.0)])
        for (k, v) in extra { o[k] = v }
        return .object(o)
    }

    /// Enrolls now; returns the activation code.
    func enroll(_ studyId: String, surgery: String, _ extra: [(String, JSONValue)] = []) throws -> String {
        let profile = try ProfileDecoder.decode(Self.profile(studyId, surgery: surgery, extra), path: "", rules: rules.snapshot.rules)
        return try service.enrollment.enroll(Enroll(profile: profile, actor: "staff:nurse")).activationCode
    }

    /// Activates now with `code`; returns the patient id.
    func activate(_ studyId: String, code: String) throws -> Int64 {
        _ = try activation.activate(Activate(studyId: studyId, code: code, clientIP: "127.0.0.1"))
        return try database.read { db in try PatientRepository.load(db, studyId: studyId)!.id }
    }

    @discardableResult
    func submit(_ patientId: Int64, _ date: String, _ body: JSONValue) throws -> JSONValue {
        let day = LocalDate(date)!
        let result = try service.days.submit(SubmitDay(patientId: patientId, date: day, patch: try DayPatchDecoder.decode(body, date: day, rules: rules.snapshot.rules)))
        return DayJSON.result.encode(DayAnswer(result, language: nil, emergencyNumber: service.configuration.app.emergencyNumber))
    }

    @discardableResult
    func submit(_ patientId: Int64, _ date: String, _ body: JSONObject) throws -> JSONValue {
        try submit(patientId, date, .object(body))
    }

    /// A staff correction of the day (`PATCH /v1/patients/{studyId}/days/{date}`).
    @discardableResult
    func correct(_ studyId: String, _ date: String, _ body: JSONValue) throws -> JSONValue {
        let day = LocalDate(date)!
        let patch = try DayPatchDecoder.decode(body, date: day, rules: rules.snapshot.rules)
        let result = try service.days.correct(CorrectDay(studyId: studyId, date: day, patch: patch, actor: "staff:nurse"))
        return DayJSON.result.encode(DayAnswer(result, language: nil, emergencyNumber: service.configuration.app.emergencyNumber))
    }

    @discardableResult
    func lab(_ studyId: String, _ sodium: Double) throws -> JSONValue {
        PatientJSON.lab.encode(try service.corrections.addLab(AddLab(studyId: studyId, sodium: sodium, time: nil, actor: "staff:nurse")))
    }

    func withdraw(_ studyId: String) throws {
        _ = try service.enrollment.withdraw(Withdraw(studyId: studyId, reason: "no longer wishes to take part", date: nil, actor: "staff:nurse"))
    }

    func acknowledge(_ alertId: Int64) throws {
        _ = try service.alerts.acknowledge(AcknowledgeAlert(alertId: alertId, note: "called", actor: "staff:nurse"))
    }

    /// ISO 8601 with the Berlin offset for `date` `time` (an input for item times).
    func stamp(_ date: String, _ time: String) -> String {
        zone.timestamp(atEpochSeconds: Berlin.at(date, time)).description
    }

    func symptoms(_ id: String, _ date: String, _ time: String, slot: String) -> JSONValue {
        ["id": .string(id), "time": .string(stamp(date, time)), "slot": .string(slot), "nausea": 0, "headache": 0, "fatigue": 0,
         "confusion": 0, "muscleCramps": 0, "vas": 9]
    }

    /// Every morning-deadline task plus the two tests (a diligent morning).
    func fullMorning(_ date: String, _ time: String = "08:45") -> JSONObject {
        JSONObject([("weightMorningKg", 80.0), ("urineSG", 1.010),
                    ("symptoms", [symptoms("m-\(date)", date, time, slot: "morning")]),
                    ("reactionTests", [["id": .string("r-\(date)"), "time": .string(stamp(date, time)), "medianMs": 600, "meanMs": 620,
                                        "errors": 0]]),
                    ("tappingTests", [["id": .string("t-\(date)"), "time": .string(stamp(date, time)), "taps": 60,
                                       "durationSeconds": 10]])])
    }

    /// The evening-deadline tasks that are left after `fullMorning`.
    func fullEvening(_ date: String, _ time: String = "20:30") -> JSONObject {
        JSONObject([("fluidIntakeMl", 1200.0), ("weightEveningKg", 80.2),
                    ("symptoms", [symptoms("e-\(date)", date, time, slot: "evening")])])
    }

    // MARK: what was decided

    func queued() throws -> [QueuedEvent] {
        try database.read { db in
            try db.query("SELECT id, event_id, hook, type, body, created_at FROM hook_outbox ORDER BY id").map { r in
                var data = JSONObject()
                if case .object(let body) = try JSONParser.parse(try r.string(4)), case .object(let d)? = body["data"] { data = d }
                return QueuedEvent(row: try r.int64(0), eventId: try r.string(1), hook: try r.string(2), type: try r.string(3),
                                   data: data, createdAt: try r.int64(5))
            }
        }
    }

    /// `reminder.due` events of one patient (all of them must go to the subscribed hook only).
    func reminders(_ studyId: String) throws -> [QueuedEvent] {
        try queued().filter { $0.type == "reminder.due" && $0.studyId == studyId }
    }

    func alerts() throws -> [StoredAlert] {
        try database.read { db in
            try db.query("""
                SELECT a.id, p.study_id, a.date, a.kind, a.level, a.state, a.opened_at
                FROM alerts a JOIN patients p ON p.id = a.patient_id ORDER BY a.id
                """).map { r in
                StoredAlert(id: try r.int64(0), studyId: try r.string(1), date: try r.string(2), kind: try r.string(3),
                            level: try r.string(4), state: try r.string(5), openedAt: try r.int64(6))
            }
        }
    }

    /// Every finding an alert covers (docs/product.md, third round, C: an alert covers days),
    /// one per alert and day, oldest alert first: `openedAt` is when the day joined (or opened)
    /// its alert, `level` what the alert holds for that day.
    func findings() throws -> [StoredAlert] {
        try database.read { db in
            try db.query("""
                SELECT a.id, p.study_id, d.date, a.kind, d.level, a.state, d.added_at
                FROM alert_days d JOIN alerts a ON a.id = d.alert_id JOIN patients p ON p.id = a.patient_id ORDER BY a.id, d.date
                """).map { r in
                StoredAlert(id: try r.int64(0), studyId: try r.string(1), date: try r.string(2), kind: try r.string(3),
                            level: try r.string(4), state: try r.string(5), openedAt: try r.int64(6))
            }
        }
    }

    func marks(_ studyId: String, date: String) throws -> [String: String] {
        try database.read { db in
            var out: [String: String] = [:]
            for r in try db.query("""
                SELECT m.mark, m.outcome FROM scheduler_marks m JOIN patients p ON p.id = m.patient_id
                WHERE p.study_id = ? AND m.date = ?
                """, [studyId, date]) { out[try r.string(0)] = try r.string(1) }
            return out
        }
    }
}

/// An expected reminder: local time, kind and the open tasks it lists.
struct ExpectedReminder: Hashable, Comparable, CustomStringConvertible {
    let time: String
    let kind: String
    let tasks: [String]

    init(_ time: String, _ kind: String, _ tasks: [String]) {
        self.time = time
        self.kind = kind
        self.tasks = tasks.sorted()
    }

    static func < (a: Self, b: Self) -> Bool { (a.time, a.kind, a.tasks.joined()) < (b.time, b.kind, b.tasks.joined()) }
    var description: String { "\(time) \(kind) \(tasks.joined(separator: ","))" }
}

/// What the simulation suites share: task names and the reminders check.
protocol SchedulerSimulationSuite {}

