import Testing
import HTJSON
@testable import HyponaTrackDomain
@testable import HyponaTrackConfigFile
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The event types hooks hear, and what a hook's `events` list accepts.
@Suite struct HookEventTypeTests {
    static func parse(events: JSONValue) throws(FieldError) -> [HookConfiguration] {
        try HookConfiguration.parse([["name": "gateway", "type": "command", "path": "/bin/true", "events": events]], resolve: { $0 })
    }

    @Test func everyEventTypeHasTheDottedNameReceiversSee() {
        #expect(HookEventType.allCases.map(\.rawValue) == [
            "alert.opened", "alert.worsened", "alert.updated", "alert.escalated", "alert.acknowledged", "alert.resolved",
            "sync.unhealthy", "sync.halted", "reminder.due", "audit.checkpoint", "backup.failed"])
    }

    @Test func aHookSubscribesToSyncReminderAndCheckpointEventsByName() throws {
        let hooks = try Self.parse(events: ["sync.unhealthy", "sync.halted", "reminder.due", "audit.checkpoint", "backup.failed"])
        #expect(hooks.first?.events == [.syncUnhealthy, .syncHalted, .reminderDue, .auditCheckpoint, .backupFailed])
        #expect(HookOutbox.subscribers(hooks, type: .backupFailed) == ["gateway"])
        #expect(HookOutbox.subscribers(hooks, type: .auditCheckpoint) == ["gateway"])
        #expect(HookOutbox.subscribers(hooks, type: .reminderDue) == ["gateway"])
        #expect(HookOutbox.subscribers(hooks, type: .alertOpened).isEmpty)
    }

    @Test(arguments: ["alert.opened", "reminder.late", "Sync.Halted"])
    func anEventAHookCannotSubscribeToIsRefusedWithTheAllowedNames(_ event: String) {
        let allowed = ["sync.unhealthy", "sync.halted", "reminder.due", "audit.checkpoint", "backup.failed"]
        #expect(throws: FieldError.invalid("hooks[0].events[0]", "\"\(event)\" is not one of \(allowed.joined(separator: ", "))",
                                           problem: .notOneOf(allowed: allowed))) {
            try Self.parse(events: [.string(event)])
        }
    }
}
