import Foundation
import Synchronization
import Testing
import HTJSON
import SQLite
import HyponaTrackCore
import HyponaTrackKit
@testable import HyponaTrackServer

// Fortnight simulations of the scheduler (issue: "Reminders and missing data"), in process: the
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
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let hooks: [HookConfiguration] = ["ward", "oncall", "lead"].map {
        HookConfiguration(name: $0, kind: .webhook(url: "http://127.0.0.1:9/\($0)", secretFile: "/nonexistent", caFile: nil), events: [])
    } + [HookConfiguration(name: "gateway", kind: .command(path: "/bin/true", args: [], timeoutSeconds: 5), events: ["reminder.due"])]
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
                guard case .object(var o) = try JSONParser.parse([UInt8](try Data(contentsOf: source))) else { throw CocoaError(.fileReadCorruptFile) }
                reminders(&o)
                try JSONSerializer.string(.object(o), pretty: true).write(to: target, atomically: true, encoding: .utf8)
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
        let result = try service.days.submit(SubmitDay(patientId: patientId, date: day, patch: try DayPatchDecoder.decode(body, date: day)))
        return DayJSON.result(result, language: nil)
    }

    @discardableResult
    func submit(_ patientId: Int64, _ date: String, _ body: JSONObject) throws -> JSONValue {
        try submit(patientId, date, .object(body))
    }

    @discardableResult
    func lab(_ studyId: String, _ sodium: Double) throws -> JSONValue {
        PatientJSON.lab(try service.corrections.addLab(AddLab(studyId: studyId, sodium: sodium, time: nil, actor: "staff:nurse")))
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

@Suite struct SchedulerSimulationTests {
    // Task names.
    static let wm = "weight_morning", sm = "symptoms_morning", usg = "urine_sg", fl = "fluid_log", rt = "reaction_test",
               tt = "tapping_test", we = "weight_evening", se = "symptoms_evening", ds = "desmopressin"

    /// The reminders queued for `studyId` on `date`, with their instants checked: each at the
    /// planned local time (`at`), queued exactly then (ticks fall on the reminder times), to the
    /// subscribed hook only.
    static func remindersOn(_ sim: Simulation, _ studyId: String, _ date: String,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> [ExpectedReminder] {
        let events = try sim.reminders(studyId).filter { $0.string("date") == date }
        for e in events {
            #expect(e.hook == "gateway", "reminder.due only to the subscribed hook: \(e)", sourceLocation: sourceLocation)
            let at = e.string("at") ?? ""
            #expect(Berlin.ms(Berlin.instant(at)) == e.createdAt, "queued at its time: \(e)", sourceLocation: sourceLocation)
        }
        return events.map { e in
            let at = e.string("at") ?? ""
            return ExpectedReminder(String(at.dropFirst(11).prefix(5)), e.string("kind") ?? "?", e.tasks)
        }.sorted()
    }

    // MARK: a fortnight per intensity branch

    /// Good adherence: check reminders only (minimal once the morning check is done), task
    /// reminders in the critical window; poor adherence: elevated, maximal in the window;
    /// simplified mode and desmopressin; done tasks never listed; nothing before activation or
    /// after monitoring ends.
    @Test func twoWeekCourseSendsTheRemindersOfEachIntensityBranch() throws {
        let surgery = "2026-04-13"
        let sim = try Simulation(start: Berlin.at(surgery, "17:00"))
        let codes = try ["SIM-GOOD", "SIM-POOR", "SIM-SIMPLE", "SIM-NOACT"].map { id in
            try sim.enroll(id, surgery: surgery, id == "SIM-SIMPLE" ? [("simplifiedMode", true), ("desmopressinPrescribed", true)] : [])
        }
        var good: Int64 = 0, poor: Int64 = 0, simple: Int64 = 0
        try sim.at(Berlin.at(surgery, "18:00")) {
            good = try sim.activate("SIM-GOOD", code: codes[0])
            poor = try sim.activate("SIM-POOR", code: codes[1])
            simple = try sim.activate("SIM-SIMPLE", code: codes[2])
        }
        for pod in 1...16 {
            let date = Berlin.day(surgery, pod)
            let monitoring = pod <= 14
            try sim.at(Berlin.at(date, "07:30")) {
                guard monitoring else { return }
                try sim.submit(poor, date, ["weightMorningKg": 80.0])
                try sim.submit(simple, date, JSONObject([("weightMorningKg", 80.0), ("urineSG", 1.010),
                                                         ("symptoms", [sim.symptoms("m-\(date)", date, "07:30", slot: "morning")])]))
            }
            try sim.at(Berlin.at(date, "08:45")) { if monitoring { try sim.submit(good, date, sim.fullMorning(date)) } }
            try sim.at(Berlin.at(date, "20:30")) { if monitoring { try sim.submit(good, date, sim.fullEvening(date)) } }
        }
        try sim.run(to: Berlin.at(Berlin.day(surgery, 17), "00:00"))

        let critical = 5...9
        let morning = [Self.wm, Self.sm, Self.usg]
        func goodPlan(_ pod: Int) -> [ExpectedReminder] {
            guard (1...14).contains(pod) else { return [] }
            var r = [ExpectedReminder("08:00", "check", morning), ExpectedReminder("20:00", "check", [Self.fl, Self.we, Self.se])]
            // Elevated in the window: the open tasks with their own times (the tests were done at 08:45).
            if critical.contains(pod) { r += [ExpectedReminder("08:30", "task", [Self.usg]), ExpectedReminder("18:00", "task", [Self.fl])] }
            return r.sorted()
        }
        func poorPlan(_ pod: Int) -> [ExpectedReminder] {
            guard (1...14).contains(pod) else { return [] }
            let open = [Self.sm, Self.usg], evening = [Self.fl, Self.rt, Self.tt, Self.we, Self.se]
            var r = [ExpectedReminder("08:00", "check", open), ExpectedReminder("11:00", "missed", open),
                     ExpectedReminder("20:00", "check", evening), ExpectedReminder("21:00", "missed", evening)]
            if pod >= 2 {   // adherence 1/8 from POD 2 on: elevated
                r += [ExpectedReminder("08:30", "task", [Self.usg]), ExpectedReminder("10:00", "task", [Self.rt]),
                      ExpectedReminder("10:15", "task", [Self.tt]), ExpectedReminder("18:00", "task", [Self.fl])]
            }
            if critical.contains(pod) { r.append(ExpectedReminder("15:00", "catch_up", open + evening)) }   // maximal
            return r.sorted()
        }
        func simplePlan(_ pod: Int) -> [ExpectedReminder] {
            guard (1...14).contains(pod) else { return [] }
            let evening = [Self.fl, Self.we, Self.se, Self.ds]
            var r = [ExpectedReminder("20:00", "check", evening)]
            if pod >= 2 {   // adherence 3/7: elevated
                r += [ExpectedReminder("09:00", "task", [Self.ds]), ExpectedReminder("18:00", "task", [Self.fl]),
                      ExpectedReminder("21:00", "missed", evening)]
            }
            if critical.contains(pod) { r.append(ExpectedReminder("15:00", "catch_up", evening)) }
            return r.sorted()
        }
        for pod in 0...16 {
            let date = Berlin.day(surgery, pod)
            #expect(try Self.remindersOn(sim, "SIM-GOOD", date) == goodPlan(pod), "SIM-GOOD POD \(pod)")
            #expect(try Self.remindersOn(sim, "SIM-POOR", date) == poorPlan(pod), "SIM-POOR POD \(pod)")
            #expect(try Self.remindersOn(sim, "SIM-SIMPLE", date) == simplePlan(pod), "SIM-SIMPLE POD \(pod)")
        }
        #expect(try sim.reminders("SIM-NOACT").isEmpty, "no reminders before activation")

        // Intensities as §7 says: inside the window at least elevated; good adherence minimal
        // once the morning check is done; poor adherence elevated, maximal in the window.
        for e in try sim.queued() where e.type == "reminder.due" {
            var pod = -1
            if case .number(let n)? = e.data["pod"] { pod = Int(n) }
            let intensity = e.string("intensity") ?? "?"
            if critical.contains(pod) { #expect(["elevated", "maximal"].contains(intensity), "\(e)") }
            switch (e.studyId, critical.contains(pod)) {
            case ("SIM-GOOD", false):
                #expect(intensity == (e.string("kind") == "check" && e.string("at")?.contains("T08:00") == true ? "normal" : "minimal"), "\(e)")
            case ("SIM-POOR", true), ("SIM-SIMPLE", true): #expect(intensity == "maximal", "\(e)")
            case ("SIM-POOR", false): #expect(intensity == (pod == 1 ? "normal" : "elevated"), "\(e)")
            case ("SIM-SIMPLE", false): #expect(intensity == (pod == 1 ? "minimal" : "elevated"), "\(e)")
            default: break
            }
        }
        // Done and hidden tasks are never reminded.
        let all = try sim.queued().filter { $0.type == "reminder.due" }
        #expect(!all.contains { $0.studyId == "SIM-POOR" && $0.tasks.contains(Self.wm) }, "weight is done at 07:30")
        #expect(!all.contains { $0.studyId == "SIM-SIMPLE" && !Set($0.tasks).isDisjoint(with: [Self.rt, Self.tt] + morning) })
        #expect(!all.contains { $0.studyId != "SIM-SIMPLE" && $0.tasks.contains(Self.ds) }, "desmopressin only when prescribed")

        // The only alerts: the poor patient's missed check-ins in the window, at the evening deadline.
        let alerts = try sim.alerts()
        #expect(alerts.map { "\($0.studyId) \($0.kind) \($0.date) \($0.level)" }
                == critical.map { "SIM-POOR missing_checkin \(Berlin.day(surgery, $0)) yellow" }, "\(alerts)")
        for a in alerts { #expect(a.openedAt == Berlin.ms(Berlin.at(a.date, "21:00")), "\(a)") }
    }

    // MARK: missing data (§8)

    @Test func missingDataAlertsFireExactlyAsSpecified() throws {
        let surgery = "2026-05-04"
        let d = { (pod: Int) in Berlin.day(surgery, pod) }
        let sim = try Simulation(start: Berlin.at(surgery, "13:00"))   // codes live 72 h: MD-SILENT activates at POD 3 12:00
        var code: [String: String] = [:]
        for id in ["MD-SILENT", "MD-LABS", "MD-PARTIAL", "MD-WITHDRAWN", "MD-NEVER"] {
            code[id] = try sim.enroll(id, surgery: surgery)
        }
        var partial: Int64 = 0
        for pod in 1...16 {
            let date = d(pod)
            if pod == 1 {
                try sim.at(Berlin.at(date, "07:00")) {
                    _ = try sim.activate("MD-LABS", code: code["MD-LABS"]!)
                    partial = try sim.activate("MD-PARTIAL", code: code["MD-PARTIAL"]!)
                    _ = try sim.activate("MD-WITHDRAWN", code: code["MD-WITHDRAWN"]!)
                }
            }
            try sim.at(Berlin.at(date, "07:30")) {
                if (1...4).contains(pod) || (11...14).contains(pod) { try sim.submit(partial, date, ["weightMorningKg": 80.0]) }
            }
            try sim.at(Berlin.at(date, "09:00")) {
                if pod <= 14 { try sim.lab("MD-LABS", 140) }   // staff values are not patient data
                if pod == 5 {   // morning check complete
                    try sim.submit(partial, date, JSONObject([("weightMorningKg", 80.0),
                                                              ("symptoms", [sim.symptoms("m5", date, "09:00", slot: "morning")])]))
                }
                if pod == 7 { try sim.submit(partial, date, ["weightMorningKg": 80.0]) }
            }
            if pod == 6 { try sim.at(Berlin.at(date, "10:00")) { try sim.withdraw("MD-WITHDRAWN") } }
            if pod == 3 { try sim.at(Berlin.at(date, "12:00")) { _ = try sim.activate("MD-SILENT", code: code["MD-SILENT"]!) } }
            // Enrolled late (codes expire after 72 h), activated on POD 8 after the evening deadline.
            if pod == 7 { try sim.at(Berlin.at(date, "12:00")) { code["MD-LATE"] = try sim.enroll("MD-LATE", surgery: surgery) } }
            try sim.at(Berlin.at(date, "20:30")) {
                if pod == 6 {   // evening check complete
                    try sim.submit(partial, date, JSONObject([("weightEveningKg", 80.0),
                                                              ("symptoms", [sim.symptoms("e6", date, "20:30", slot: "evening")])]))
                }
                if pod == 7 { try sim.submit(partial, date, ["weightEveningKg": 80.0]) }   // weights, but no check complete
            }
            if pod == 8 {
                try sim.at(Berlin.at(date, "21:30")) {   // complete, but after the evening deadline
                    try sim.submit(partial, date, JSONObject([("weightEveningKg", 80.0),
                                                              ("symptoms", [sim.symptoms("e8", date, "21:30", slot: "evening")])]))
                }
                try sim.at(Berlin.at(date, "22:00")) { _ = try sim.activate("MD-LATE", code: code["MD-LATE"]!) }
            }
        }
        try sim.run(to: Berlin.at(d(17), "00:00"))

        // (study, kind, POD) → the instant it must have been raised.
        var expected: [String: Double] = [:]
        func checkin(_ id: String, _ pods: [Int]) { for p in pods { expected["\(id) missing_checkin \(d(p))"] = Berlin.at(d(p), "21:00") } }
        func noData(_ id: String, _ pods: ClosedRange<Int>) { for p in pods { expected["\(id) no_data_2d \(d(p))"] = Berlin.at(d(p + 1), "00:00") } }
        // Activated on POD 3: the first pair of empty days on/after activation is POD 3–4.
        // A red no_data_2d on POD ≥ 10 is "any yellow/red on POD ≥ 10": monitoring extends to
        // POD 21, so silence goes on raising alerts after POD 14 (here up to POD 16, the run's end).
        checkin("MD-SILENT", Array(5...9)); noData("MD-SILENT", 4...16)
        checkin("MD-LABS", Array(5...9)); noData("MD-LABS", 2...16)
        // Activated on POD 8 at 22:00: that day's deadline passed before activation; the
        // activation day counts for no_data_2d.
        checkin("MD-LATE", [9]); noData("MD-LATE", 9...16)
        // Morning check (POD 5) or evening check (POD 6) complete: none; weights only, a late
        // evening check, nothing: raised. No data on POD 9–10; the red on POD 10 extends the
        // window, and after the last data on POD 14 the second silent day is POD 16.
        checkin("MD-PARTIAL", [7, 8, 9]); noData("MD-PARTIAL", 10...10); noData("MD-PARTIAL", 16...16)
        // Withdrawn on POD 6: monitoring ended on POD 5; nothing after.
        checkin("MD-WITHDRAWN", [5]); noData("MD-WITHDRAWN", 2...5)

        let alerts = try sim.alerts()
        var seen: [String: Int] = [:]
        for a in alerts {
            let key = "\(a.studyId) \(a.kind) \(a.date)"
            seen[key, default: 0] += 1
            guard let instant = expected[key] else { Issue.record("unexpected alert \(a)"); continue }
            #expect(a.openedAt == Berlin.ms(instant), "raised exactly at its deadline: \(a)")
            #expect(a.level == (a.kind == "missing_checkin" ? "yellow" : "red"), "\(a)")
        }
        for key in expected.keys.sorted() { #expect(seen[key] == 1, "\(key) raised \(seen[key] ?? 0) times") }
        #expect(!alerts.contains { $0.studyId == "MD-NEVER" })

        // They are alerts like any other: tier 0 at once, and a red one climbs its ladder.
        let first = try #require(alerts.first { $0.studyId == "MD-SILENT" && $0.kind == "no_data_2d" && $0.date == d(4) })
        let events = try sim.queued().filter { $0.alertId == Int(first.id) }
        #expect(events.map { "\($0.type)→\($0.hook) t\($0.tier ?? -1) +\(($0.createdAt - first.openedAt) / 60_000)m" }
                == ["alert.opened→ward t0 +0m", "alert.escalated→oncall t1 +15m", "alert.escalated→lead t2 +45m"])
        #expect(events.first?.string("kind") == "no_data_2d")
        let checkinAlert = try #require(alerts.first { $0.studyId == "MD-SILENT" && $0.kind == "missing_checkin" })
        #expect(try sim.queued().filter { $0.alertId == Int(checkinAlert.id) }.map { "\($0.type)→\($0.hook)" } == ["alert.opened→ward"])
    }

    // MARK: downtime

    /// After a downtime the missed deadlines are raised once, at the first tick, by a restarted
    /// scheduler; never twice. Reminders more than 30 minutes late are skipped, later ones sent.
    @Test func downtimeRaisesEachMissedDeadlineOnceAndSkipsStaleReminders() throws {
        let surgery = "2026-06-01"
        let d = { (pod: Int) in Berlin.day(surgery, pod) }
        let sim = try Simulation(start: Berlin.at(surgery, "12:00"))
        let code = try sim.enroll("DT-SILENT", surgery: surgery)
        try sim.at(Berlin.at(d(1), "07:00")) { _ = try sim.activate("DT-SILENT", code: code) }
        try sim.run(to: Berlin.at(d(5), "12:00"))
        let before = try sim.alerts()
        let resume = Berlin.at(d(7), "11:15")
        sim.skip(to: resume)
        sim.restart()
        try sim.run(to: resume)
        let caughtUp = try sim.alerts().filter { a in !before.contains { $0.id == a.id } }
        #expect(caughtUp.map { "\($0.kind) \($0.date)" }.sorted()
                == ["missing_checkin \(d(5))", "missing_checkin \(d(6))", "no_data_2d \(d(5))", "no_data_2d \(d(6))"], "\(caughtUp)")
        #expect(caughtUp.allSatisfy { $0.openedAt == Berlin.ms(resume) })
        try sim.run(to: Berlin.at(d(8), "00:30"))

        // Again at the same instant, by this scheduler and by a restarted one: nothing new.
        let events = try sim.queued().count, alerts = try sim.alerts().count
        try sim.tickAgain()
        sim.restart()
        try sim.tickAgain()
        #expect(try sim.queued().count == events)
        #expect(try sim.alerts().count == alerts)

        var expected: [String: Int64] = [:]
        for p in 2...7 { expected["no_data_2d \(d(p))"] = Berlin.ms(Berlin.at(d(p + 1), "00:00")) }
        for p in 5...7 { expected["missing_checkin \(d(p))"] = Berlin.ms(Berlin.at(d(p), "21:00")) }
        for key in ["no_data_2d \(d(5))", "no_data_2d \(d(6))", "missing_checkin \(d(5))", "missing_checkin \(d(6))"] {
            expected[key] = Berlin.ms(resume)
        }
        let all = try sim.alerts()
        #expect(Dictionary(all.map { ("\($0.kind) \($0.date)", $0.openedAt) }, uniquingKeysWith: { a, _ in a }) == expected)
        #expect(all.count == expected.count, "each raised once: \(all)")

        // Reminders: none during the downtime; on the day of the restart the 11:00 one (15 min
        // late) is sent, the older ones are skipped, the later ones sent on time.
        #expect(try Self.remindersOn(sim, "DT-SILENT", d(6)).isEmpty)
        #expect(try sim.reminders("DT-SILENT").filter { $0.string("date") == d(5) && $0.createdAt > Berlin.ms(Berlin.at(d(5), "12:00")) }.isEmpty)
        let day7 = try sim.reminders("DT-SILENT").filter { $0.string("date") == d(7) }
        #expect(day7.map { "\($0.string("at")?.dropFirst(11).prefix(5) ?? "") \($0.string("kind") ?? "")" }
                == ["11:00 missed", "15:00 catch_up", "18:00 task", "20:00 check", "21:00 missed"], "\(day7)")
        #expect(day7.first?.createdAt == Berlin.ms(resume), "the late one is sent at the restart")
        let marks = try sim.marks("DT-SILENT", date: d(7))
        for key in ["reminder@08:00:check", "reminder@08:30:task", "reminder@10:00:task", "reminder@10:15:task"] {
            #expect(marks.contains { $0.key.hasPrefix(key) && $0.value == "skipped" }, "\(key) skipped: \(marks)")
        }
    }

    // MARK: escalation

    /// Tiers fire at their absolute due times, once, also across restarts and downtime; an
    /// acknowledgement stops the climb; a worsening restarts the ladder (the old one is void).
    @Test func escalationTiersFireAtTheirAbsoluteTimesOnceAcrossRestarts() throws {
        let surgery = "2026-06-01"
        let pod6 = Berlin.day(surgery, 6)
        let ladder = EscalationLadder(
            red: [.init(afterMinutes: 0, hooks: ["ward"]), .init(afterMinutes: 15, hooks: ["oncall"]),
                  .init(afterMinutes: 45.5, hooks: ["lead"])],
            yellow: [.init(afterMinutes: 0, hooks: ["ward"]), .init(afterMinutes: 30, hooks: ["oncall"])])
        let sim = try Simulation(start: Berlin.at(pod6, "09:00"), step: 30, ladder: ladder)
        for id in ["ES-A", "ES-B", "ES-C", "ES-D"] {
            let code = try sim.enroll(id, surgery: surgery)
            _ = try sim.activate(id, code: code)
        }
        let t = Berlin.at(pod6, "10:00")
        try sim.at(t) {
            try sim.lab("ES-A", 128)   // red
            try sim.lab("ES-B", 128)   // red, acknowledged after tier 1
            try sim.lab("ES-C", 133)   // yellow, worsens later
        }
        try sim.at(t + 600) { try sim.lab("ES-C", 128) }
        let alertB = try #require(try sim.alerts().first { $0.studyId == "ES-B" })
        try sim.at(t + 1200) {
            try sim.acknowledge(alertB.id)
            sim.restart()
        }
        try sim.run(to: t + 4200)
        // Downtime over both tiers of a new alert.
        try sim.at(t + 4200) { try sim.lab("ES-D", 127) }
        sim.skip(to: t + 7800)
        sim.restart()
        try sim.run(to: t + 8400)
        let count = try sim.queued().count
        try sim.tickAgain()
        sim.restart()
        try sim.tickAgain()
        #expect(try sim.queued().count == count, "nothing fires twice")

        let alerts = try sim.alerts()
        func timeline(_ studyId: String) throws -> [String] {
            let ids = Set(alerts.filter { $0.studyId == studyId }.map { Int($0.id) })
            return try sim.queued().filter { $0.alertId.map(ids.contains) == true && $0.type != "reminder.due" }
                .map { "\($0.type)→\($0.hook) \($0.level ?? "") t\($0.tier.map(String.init) ?? "-") +\(Double($0.createdAt - Berlin.ms(t)) / 60_000)m" }
        }
        #expect(try timeline("ES-A") == ["alert.opened→ward red t0 +0.0m", "alert.escalated→oncall red t1 +15.0m",
                                         "alert.escalated→lead red t2 +45.5m"])
        #expect(try timeline("ES-B") == ["alert.opened→ward red t0 +0.0m", "alert.escalated→oncall red t1 +15.0m",
                                         "alert.acknowledged→oncall red t- +20.0m", "alert.acknowledged→ward red t- +20.0m"])
        // Worsened at +10: the red ladder counts from then; the yellow tier 1 (+30) is void.
        #expect(try timeline("ES-C") == ["alert.opened→ward yellow t0 +0.0m", "alert.worsened→ward red t0 +10.0m",
                                         "alert.escalated→oncall red t1 +25.0m", "alert.escalated→lead red t2 +55.5m"])
        // Both tiers were due during the downtime: fired once at the restart, in order.
        #expect(try timeline("ES-D") == ["alert.opened→ward red t0 +70.0m", "alert.escalated→oncall red t1 +130.0m",
                                         "alert.escalated→lead red t2 +130.0m"])
        #expect(alerts.filter { $0.studyId == "ES-C" }.count == 1, "a worsening keeps the alert")
        #expect(alerts.first { $0.studyId == "ES-C" }?.level == "red")
    }

    // MARK: DST

    /// Spring forward (2026-03-29, POD 5 of a surgery on 03-24): with the morning check moved to
    /// 02:30 (inside the gap), every reminder fires exactly once at its local time; 02:30 fires at
    /// 03:30 CEST. Missing-data deadlines fall on the right instants too.
    @Test func springForwardEachReminderOnceAtTheRightInstant() throws {
        try Self.dstCourse(surgery: "2026-03-24", offsets: [
            "2026-03-28": ("+01:00", "+01:00"), "2026-03-29": ("+02:00", "+02:00"), "2026-03-30": ("+02:00", "+02:00"),
        ], gapAt: "2026-03-29T03:30:00+02:00", missing: [
            "no_data_2d 2026-03-28": "2026-03-28T23:00:00Z", "no_data_2d 2026-03-29": "2026-03-29T22:00:00Z",
            "no_data_2d 2026-03-30": "2026-03-30T22:00:00Z",
            "missing_checkin 2026-03-29": "2026-03-29T19:00:00Z", "missing_checkin 2026-03-30": "2026-03-30T19:00:00Z",
        ])
    }

    /// Fall back (2026-10-25, POD 5 of a surgery on 10-20): 02:30 occurs twice and fires once, at
    /// the first occurrence (00:30Z); the rest at their CET instants.
    @Test func fallBackEachReminderOnceAtTheRightInstant() throws {
        try Self.dstCourse(surgery: "2026-10-20", offsets: [
            "2026-10-24": ("+02:00", "+02:00"), "2026-10-25": ("+02:00", "+01:00"), "2026-10-26": ("+01:00", "+01:00"),
        ], gapAt: nil, missing: [
            "no_data_2d 2026-10-24": "2026-10-24T22:00:00Z", "no_data_2d 2026-10-25": "2026-10-25T23:00:00Z",
            "no_data_2d 2026-10-26": "2026-10-26T23:00:00Z",
            "missing_checkin 2026-10-25": "2026-10-25T20:00:00Z", "missing_checkin 2026-10-26": "2026-10-26T20:00:00Z",
        ])
    }

    /// A silent patient activated on POD 3 at 12:00, ticks every 5 minutes to POD 7 00:30.
    /// `offsets[date]` = (offset of 02:30, offset of every later time that day).
    static func dstCourse(surgery: String, offsets: [String: (String, String)], gapAt: String?, missing: [String: String]) throws {
        let d = { (pod: Int) in Berlin.day(surgery, pod) }
        let sim = try Simulation(start: Berlin.at(d(3), "11:00"), step: 300) { o in
            o["checkTimes"] = ["morning": "02:30", "evening": "20:00"]
            o["quietHours"] = ["from": "00:00", "to": "00:00"]
        }
        let code = try sim.enroll("DST-1", surgery: surgery)
        try sim.at(Berlin.at(d(3), "12:00")) { _ = try sim.activate("DST-1", code: code) }
        try sim.run(to: Berlin.instant("\(d(7))T00:30:00\(offsets[d(6)]!.1)"))

        let morning = [wm, sm, usg], evening = [fl, rt, tt, we, se]
        for pod in 4...6 {
            let date = d(pod)
            var plan: [(String, String, [String])] = [
                ("02:30", "check", morning), ("08:30", "task", [usg]), ("10:00", "task", [rt]), ("10:15", "task", [tt]),
                ("11:00", "missed", morning), ("18:00", "task", [fl]), ("20:00", "check", evening), ("21:00", "missed", evening)]
            if pod >= 5 { plan.append(("15:00", "catch_up", morning + evening)) }   // maximal in the window
            let (early, late) = offsets[date]!
            let expected = plan.map { p -> String in
                let at = p.0 == "02:30" && gapAt != nil && date == String(gapAt!.prefix(10)) ? gapAt! : "\(date)T\(p.0):00\(p.0 == "02:30" ? early : late)"
                return "\(at) \(p.1) \(p.2.sorted().joined(separator: ","))"
            }.sorted()
            let events = try sim.reminders("DST-1").filter { $0.string("date") == date }
            let actual = events.map { "\($0.string("at") ?? "") \($0.string("kind") ?? "") \($0.tasks.joined(separator: ","))" }.sorted()
            #expect(actual == expected, "POD \(pod) \(date)")
            for e in events {
                #expect(Berlin.ms(Berlin.instant(e.string("at") ?? "")) == e.createdAt, "queued at its instant: \(e)")
            }
        }
        let alerts = try sim.alerts().filter { (d(4)...d(6)).contains($0.date) }
        #expect(Dictionary(alerts.map { ("\($0.kind) \($0.date)", $0.openedAt) }, uniquingKeysWith: { a, _ in a })
                == missing.mapValues { Berlin.ms(Berlin.instant($0)) }, "\(alerts)")
        #expect(alerts.count == missing.count)
    }

    // MARK: reminder identity

    /// Two task reminders at the same local time (urine and desmopressin both at 08:30) are two
    /// reminders: each is sent.
    @Test func taskRemindersAtTheSameTimeAreEachSent() throws {
        let surgery = "2026-06-01"
        let d = { (pod: Int) in Berlin.day(surgery, pod) }
        let sim = try Simulation(start: Berlin.at(d(3), "11:00")) { o in
            o["taskTimes"] = ["urine_sg": "08:30", "reaction_test": "10:00", "tapping_test": "10:15", "desmopressin": "08:30",
                              "fluid_log": "18:00"]
        }
        let code = try sim.enroll("SAME-1", surgery: surgery, [("desmopressinPrescribed", true), ("simplifiedMode", true)])
        try sim.at(Berlin.at(d(3), "12:00")) { _ = try sim.activate("SAME-1", code: code) }
        try sim.run(to: Berlin.at(d(5), "09:00"))
        for pod in [4, 5] {
            let at0830 = try Self.remindersOn(sim, "SAME-1", d(pod)).filter { $0.time == "08:30" }
            #expect(at0830 == [ExpectedReminder("08:30", "task", [Self.ds]), ExpectedReminder("08:30", "task", [Self.usg])].sorted(),
                    "POD \(pod)")
        }
    }

    // MARK: agreement with the app's plan

    /// The daemon's `reminder.due` follows the same plan as `GET /v1/me/today` (which the app
    /// schedules from), also with a longer adherence window (7 days) configured.
    @Test func reminderDueFollowsTheAppsPlanWithALongerAdherenceWindow() throws {
        let surgery = "2026-06-01"
        let d = { (pod: Int) in Berlin.day(surgery, pod) }
        let sim = try Simulation(start: Berlin.at(surgery, "17:00")) { o in
            if case .object(var i)? = o["intensity"] { i["adherenceDays"] = 7; o["intensity"] = .object(i) }
        }
        let code = try sim.enroll("ADH-1", surgery: surgery)
        var patient: Int64 = 0
        try sim.at(Berlin.at(surgery, "18:00")) { patient = try sim.activate("ADH-1", code: code) }
        for pod in 1...12 {
            let date = d(pod)
            try sim.at(Berlin.at(date, "08:45")) { try sim.submit(patient, date, sim.fullMorning(date)) }
            if pod < 12 { try sim.at(Berlin.at(date, "20:30")) { try sim.submit(patient, date, sim.fullEvening(date)) } }
        }
        // POD 12, 20:55: every task of the past 7 days done, the morning check done → minimal.
        try sim.run(to: Berlin.at(d(12), "20:55"))
        guard case .object(let today) = DayJSON.today(try sim.service.days.today(patientId: patient), language: nil),
              case .object(let reminders)? = today["reminders"], case .array(let plan)? = reminders["plan"] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        #expect(reminders["intensity"] == "minimal")
        try sim.run(to: Berlin.at(d(13), "00:00"))
        // The plan lists what is still open now, so compare the evening (20:00 and later).
        let evening = { (at: String) in String(at.dropFirst(11).prefix(5)) >= "20:00" }
        let planned = plan.compactMap { p -> String? in
            guard case .object(let o) = p, case .string(let at)? = o["at"], case .string(let kind)? = o["kind"], evening(at) else { return nil }
            return "\(at) \(kind)"
        }.sorted()
        #expect(!planned.isEmpty)
        let sent = try sim.reminders("ADH-1").filter { $0.string("date") == d(12) && evening($0.string("at") ?? "") }
            .map { "\($0.string("at") ?? "") \($0.string("kind") ?? "")" }
        #expect(sent.sorted() == planned, "the daemon sends what the app was told")
        #expect(!sent.contains { $0.hasSuffix("missed") }, "minimal: no missed reminders")
    }
}
