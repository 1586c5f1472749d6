// Ingest benchmark (release build; run by scripts/bench after bench-core).
//
// Measures, on this machine and disk, in one run:
//  1. the single-commit ceiling: one row per BEGIN IMMEDIATE … COMMIT with WAL + synchronous=FULL
//     through our SQLite wrapper, one thread, in a temporary directory beside the daemon's data;
//  2. the real hyponatrackd on a free loopback port with a fresh data directory: start-to-ready
//     time and RSS;
//  3. acknowledged durable submissions (PUT /v1/me/days/{date}, each adding one new symptom entry)
//     per second with 1, 4 and 16 concurrent clients — one thread and one keep-alive HTTP/1.1
//     connection per client, requests back to back — with p50/p99/max latency, every non-200
//     counted, each configuration repeated. Clients fill fresh patients' days a few submissions
//     per day (see PatientPool), because a submission's cost grows with what its day holds;
//  4. where the time goes (daemon-side request durations, write queue depth, CPU per thread), and
//     the floor: the daemon's CPU per request for requests that write nothing (GET /healthz, a
//     patient's GET /v1/me/today), same clients, same run (FloorProbes);
//  5. that the stopped daemon's database holds exactly the acknowledged submissions.
// The goals of issue 3 are printed as met/not met against the figures as measured. Nothing here
// is a test; exit status 1 means the benchmark could not run, the daemon did not stop cleanly or
// acknowledged data went missing; 64 is a usage error.
import Foundation

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("bench-ingest: \(error)\n".utf8))
    exit(64)
}
do {
    exit(try IngestBenchmark(options: options).run())
} catch {
    FileHandle.standardError.write(Data("bench-ingest: \(error)\n".utf8))
    exit(1)
}
