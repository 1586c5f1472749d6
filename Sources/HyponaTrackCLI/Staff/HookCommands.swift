import HTJSON

/// `hyponatrack hooks status|list|retry EVENT_ID|enable NAME`.
enum HookCommands {
    static let group = CommandGroup(name: "hooks", about: """
        The configured hooks (webhooks, e-mail, commands). status: per hook, pending and delivered
        events and dead letters. list: the events themselves, newest first. retry EVENT_ID
        (admin): send a dead or failed event again now. enable NAME (admin): a hook disabled by
        its endpoint's 410 Gone takes events again. `hyponatrack hooks SUBCOMMAND --help` for details.
        """, subcommands: [AlertCommands.hooksStatus, list, retry, enable])

    static let list = StaffCommand(name: "hooks list", usage: ["hooks list [--state pending|failed|dead|delivered] [--hook NAME] [--limit N] [--json]"],
                                   about: """
        Hook events newest first, one line per event and hook: its id (for `hooks retry`), type,
        state (pending: not yet tried; failed: tried, waiting for its next attempt; dead: given
        up; delivered), attempts and last error. --limit: at most N (default 100, at most 1000).
        """, spec: .init(options: ["state", "hook", "limit"])) { a, client in
        var query: [String] = []
        for key in ["state", "hook", "limit"] { if let v = a.value(key) { query.append("\(key)=\(DaemonClient.segment(v))") } }
        let r = try client.get("/v1/hooks/events" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
        return Reply(json: r) { io in
            guard case .array(let items) = r, !items.isEmpty else { io.out("No hook events."); return }
            io.out(Show.table(["EVENT", "HOOK", "TYPE", "STATE", "ATTEMPTS", "CREATED", "NEXT ATTEMPT", "LAST ERROR"], items.map { e in
                ["eventId", "hook", "type", "state", "attempts", "createdAt", "nextAttemptAt", "lastError"].map { Show.text(e, $0) }
            }))
        }
    }

    static let retry = StaffCommand(name: "hooks retry", usage: ["hooks retry EVENT_ID [--json]"], about: """
        Admin: sends a dead or failed event again now, to each hook that did not take it, with
        another 24 hours of retries (audited as hook.retry). A disabled hook is refused: enable it
        first. Receivers see the same webhook-id and de-duplicate.
        """, operands: ["EVENT_ID"], spec: .init()) { a, client in
        let id = a.positionals[0]
        let r = try client.post("/v1/hooks/events/\(DaemonClient.segment(id))/retry")
        return Reply(json: r) { io in io.out("Event \(id) goes again to \(Show.text(r, "hooks")).") }
    }

    static let enable = StaffCommand(name: "hooks enable", usage: ["hooks enable NAME [--json]"], about: """
        Admin: enables the hook NAME again after its endpoint answered 410 Gone (audited as
        hook.enable). Its dead events stay dead: `hooks list --state dead --hook NAME`, then
        `hooks retry EVENT_ID` for those that still matter.
        """, operands: ["NAME"], spec: .init()) { a, client in
        let name = a.positionals[0]
        let r = try client.post("/v1/hooks/\(DaemonClient.segment(name))/enable")
        return Reply(json: r) { io in io.out("Hook \(name) is enabled again.") }
    }
}
