import Foundation
import HTJSON
import HyponaTrackCore
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Command hooks against real executables.
extension HookTransportTests {
    // MARK: - Commands

    @Suite struct Command {
        @Test func commandReceivesTheEventOnStdinWithAMinimalEnvironment() throws {
            let dir = try TemporaryDirectory()
            let script = try dir.script("hook", """
                #!/bin/sh
                cat > "$1"
                printf '%s %s' "$HYPONATRACK_EVENT_ID" "$HYPONATRACK_EVENT_TYPE" > "$2"
                env > "$3"
                """)
            let (event, body) = Fixture.alertEvent(id: "evt_stdin")
            let transport = CommandTransport(path: script, args: [dir.path("stdin"), dir.path("ids"), dir.path("env")],
                                             timeout: .seconds(20))
            #expect(transport.deliver(eventId: "evt_stdin", timestamp: Fixture.now(), body: body, event: event) == .delivered)
            #expect(try dir.bytes("stdin") == body)
            #expect(try dir.text("ids") == "evt_stdin alert.opened")
            let names = Set(try dir.text("env").split(separator: "\n").compactMap { $0.split(separator: "=").first.map(String.init) })
            let allowed: Set = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "USER", "LOGNAME",
                                "HYPONATRACK_EVENT_ID", "HYPONATRACK_EVENT_TYPE", "PWD", "SHLVL", "_", "OLDPWD"]
            #expect(names.subtracting(allowed).isEmpty, "unexpected variables: \(names.subtracting(allowed))")
        }

        @Test func shippedExampleScriptLogsAOneLineSummary() throws {
            let dir = try TemporaryDirectory()
            let script = ScriptPeer.scripts + "/examples/page-oncall"
            let (event, body) = Fixture.alertEvent(id: "evt_example")
            let transport = CommandTransport(path: script, args: ["--log", dir.path("pages.log")], timeout: .seconds(20))
            #expect(transport.deliver(eventId: "evt_example", timestamp: Fixture.now(), body: body, event: event) == .delivered)
            #expect(try dir.text("pages.log")
                    == "2026-03-09T08:00:00.000Z alert.opened HT-001 RED POD 7 alert 42 tier 0 reasons: confusion,sodium_low\n")
        }

        @Test func nonZeroExitIsRetriedWithTheStatusAndStderr() throws {
            let dir = try TemporaryDirectory()
            let script = try dir.script("fail", """
                #!/bin/sh
                cat > /dev/null
                echo "starting" >&2
                echo "pager gateway unreachable" >&2
                exit 3
                """)
            let (event, body) = Fixture.alertEvent(id: "evt_exit")
            let result = CommandTransport(path: script).deliver(eventId: "evt_exit", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, nil) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("exited with status 3"))
            #expect(reason.hasSuffix(": starting | pager gateway unreachable"))
        }

        @Test func timeoutKillsTheCommandAndWhatItStarted() throws {
            let dir = try TemporaryDirectory()
            // Ignores SIGTERM, so only the SIGKILL after the grace period ends it.
            let script = try dir.script("hang", """
                #!/bin/sh
                trap '' TERM
                echo $$ > "$1"
                sleep 30 &
                echo $! > "$2"
                wait
                """)
            let (event, body) = Fixture.alertEvent(id: "evt_hang")
            let transport = CommandTransport(path: script, args: [dir.path("pid"), dir.path("child")],
                                             timeout: .milliseconds(800), killGrace: .milliseconds(300))
            let clock = ContinuousClock()
            let started = clock.now
            let result = transport.deliver(eventId: "evt_hang", timestamp: Fixture.now(), body: body, event: event)
            let elapsed = clock.now - started
            guard case .retry(let reason, nil) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("did not finish within 0.8 s"))
            #expect(elapsed >= .milliseconds(800) && elapsed < .seconds(10))
            // The script itself was reaped by deliver (no zombie): its pid no longer exists.
            let pid = try #require(Int32(dir.text("pid").trimmingCharacters(in: .whitespacesAndNewlines)))
            let alive = kill(pid, 0)
            let error = errno
            #expect(alive == -1 && error == ESRCH)
            // Its child died with the process group (a zombie until init reaps it counts as dead).
            let child = try #require(Int32(dir.text("child").trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(try Fixture.eventually { Fixture.isDeadOrZombie(child) })
        }

        @Test func aMissingOrNotYetExecutableCommandIsRetriedAndOnlyARelativePathFailsPermanently() throws {
            let dir = try TemporaryDirectory()
            let (event, body) = Fixture.alertEvent(id: "evt_missing")
            // Mid-redeploy: gone, not yet executable, or a directory where the file will be.
            for path in [dir.path("does-not-exist"), try dir.file("not-executable", "#!/bin/sh\nexit 0\n"), dir.path("")] {
                let result = CommandTransport(path: path).deliver(eventId: "evt_missing", timestamp: Fixture.now(), body: body,
                                                                  event: event)
                guard case .retry(let reason, nil) = result else { Issue.record("\(path): expected retry, got \(result)"); continue }
                #expect(reason.contains(path))
                #expect(CommandTransport.validate(path: path) != nil, "still refused at start")
            }
            let relative = CommandTransport(path: "relative/hook").deliver(eventId: "evt_missing", timestamp: Fixture.now(), body: body,
                                                                            event: event)
            guard case .failed = relative else { Issue.record("relative path: expected failed, got \(relative)"); return }
        }

        @Test func chattyCommandThatIgnoresStdinNeitherBlocksNorLeaks() throws {
            let dir = try TemporaryDirectory()
            // Writes far more than a pipe holds to both streams and never reads its stdin.
            let script = try dir.script("chatty", """
                #!/bin/sh
                head -c 1000000 /dev/zero | tr '\\0' 'o'
                head -c 1000000 /dev/zero | tr '\\0' 'e' >&2
                exit 0
                """)
            let body = [UInt8](repeating: UInt8(ascii: "x"), count: 1_000_000)
            let transport = CommandTransport(path: script, timeout: .seconds(20))
            let pipesBefore = Fixture.openPipes()
            for _ in 0..<30 {
                #expect(transport.deliver(eventId: "evt_chatty", timestamp: Fixture.now(), body: body, event: .null) == .delivered)
            }
            // Three pipes per run would be 90 leaked descriptors, and they would stay. The count is
            // the whole process's: other tests running in parallel (daemons' output pipes, other
            // commands) open and close some of their own (up to ~20 seen), hence the margin and
            // the wait for a moment when theirs are fewer.
            #expect(try Fixture.eventually(timeout: .seconds(20)) { Fixture.openPipes() - pipesBefore < 45 },
                    "pipes still open after 30 deliveries: \(Fixture.openPipes() - pipesBefore) more than before")
        }
    }
}
