import HyponaTrackKit
import SQLite

/// What the liveness check found: whether the daemon still works (its failure, if not) and the
/// figures of its status line.
struct Liveness: Sendable, Equatable {
    enum Sync: String, Sendable { case ok, halted, off }

    /// Why the daemon is not alive; nil when it is.
    var failure: String?
    /// Patients enrolled and not withdrawn; nil when the database could not be read.
    var patients: Int?
    var sync: Sync

    var isAlive: Bool { failure == nil }
}

/// The check behind systemd's `WATCHDOG=1`: the background services are still running (none
/// has returned on its own), the reader pool answers a query, and — when asked — the writer
/// commits a heartbeat. A stuck writer blocks the check, so no `WATCHDOG=1` is sent and systemd
/// acts after `WatchdogSec=`; that is the point.
struct LivenessProbe: Sendable {
    let database: Database
    let services: ServiceGroup
    let syncEnabled: Bool
    let clock: any ServerClock

    func check(write: Bool) -> Liveness {
        var liveness = Liveness(failure: nil, patients: nil, sync: syncEnabled ? .ok : .off)
        let dead = services.finishedEarly
        if !dead.isEmpty { liveness.failure = "service stopped on its own: \(dead.joined(separator: ", "))" }
        do {
            let (patients, halted) = try database.read { db in
                (try PatientRepository.countEnrolled(db), syncEnabled ? try OutboxRepository.isHalted(db) : false)
            }
            liveness.patients = patients
            if halted { liveness.sync = .halted }
        } catch {
            liveness.failure = liveness.failure ?? "database read failed: \(error)"
        }
        if write, liveness.isAlive {
            do {
                try database.write { db in try HeartbeatRepository.beat(db, at: epochMilliseconds(clock.now())) }
            } catch {
                liveness.failure = "database write failed: \(error)"
            }
        }
        return liveness
    }
}
