import HyponaTrackKit
import SQLite

/// What the liveness check found: whether the daemon still works (its failure, if not) and the
/// figures of its status line.
public struct Liveness: Sendable, Equatable {
    public enum Sync: String, Sendable { case ok, halted, off }

    /// Why the daemon is not alive; nil when it is.
    public var failure: String?
    /// Patients enrolled and not withdrawn; nil when the database could not be read.
    public var patients: Int?
    public var sync: Sync

    public var isAlive: Bool { failure == nil }

    public init(failure: String? = nil, patients: Int? = nil, sync: Sync) {
        self.failure = failure
        self.patients = patients
        self.sync = sync
    }
}

/// The check behind systemd's `WATCHDOG=1`: the background services are still running (none
/// has returned on its own), the reader pool answers a query, and — when asked — the writer
/// commits a heartbeat. A stuck writer blocks the check, so no `WATCHDOG=1` is sent and systemd
/// acts after `WatchdogSec=`; that is the point.
public struct LivenessProbe: Sendable {
    public let database: Database
    public let services: ServiceGroup
    public let syncEnabled: Bool
    public let clock: any ServerClock

    public func check(write: Bool) -> Liveness {
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

    public init(database: Database, services: ServiceGroup, syncEnabled: Bool, clock: any ServerClock) {
        self.database = database
        self.services = services
        self.syncEnabled = syncEnabled
        self.clock = clock
    }
}
