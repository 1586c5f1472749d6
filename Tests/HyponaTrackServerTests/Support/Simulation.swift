import Foundation
import Synchronization
import Testing
import HTJSON
import SQLite
import HyponaTrackCore
import HyponaTrackKit
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer
@testable import HyponaTrackTestSupport

extension SchedulerSimulationSuite {
    // Task names.
    static var wm: String { "weight_morning" }
    static var sm: String { "symptoms_morning" }
    static var usg: String { "urine_sg" }
    static var fl: String { "fluid_log" }
    static var rt: String { "reaction_test" }
    static var tt: String { "tapping_test" }
    static var we: String { "weight_evening" }
    static var se: String { "symptoms_evening" }
    static var ds: String { "desmopressin" }

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
}
