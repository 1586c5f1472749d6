import Foundation
import Testing
import HTJSON

/// Every documented operation against every kind of caller: no token, a garbage token, a
/// patient, a viewer, a nurse, an admin. Expected: the capability in the spec decides.
@Suite struct AuthorizationMatrixTests {
    enum Caller: String, CaseIterable { case none, garbage, patient, viewer, nurse, admin }

    @Test func theWholeMatrix() throws {
        let d = try TestDaemon()
        let patient = try Study.enrollAndActivate(d, "AUTH-1")
        let tokens: [Caller: String] = [.garbage: "hts_forged", .patient: patient,
                                        .viewer: try Study.staff(d, "v.viewer", role: "viewer", allSites: true),
                                        .nurse: try Study.staff(d, "n.nurse", role: "nurse", allSites: true), .admin: d.adminToken]
        guard case .object(let spec) = try d.request(.get, "/openapi.json").json, case .object(let paths)? = spec["paths"] else {
            Issue.record("no spec"); return
        }
        var checked = 0
        for (path, value) in paths.members {
            guard case .object(let ops) = value else { continue }
            for (method, op) in ops.members {
                guard case .object(let operation) = op else { continue }
                let capability: String?
                if case .string(let c)? = operation["x-required-capability"] { capability = c } else { capability = nil }
                let isPatientRoute = path.hasPrefix("/v1/me/")
                let isPublic = !isPatientRoute && capability == nil
                let concrete = path.replacingOccurrences(of: "{date}", with: Study.date(-1))
                    .replacingOccurrences(of: "{studyId}", with: "NOBODY").replacingOccurrences(of: "{labId}", with: "1")
                    .replacingOccurrences(of: "{list}", with: "symptoms").replacingOccurrences(of: "{itemId}", with: "x")
                    .replacingOccurrences(of: "{name}", with: "nobody").replacingOccurrences(of: "{alertId}", with: "999")
                for caller in Caller.allCases where !isPublic {
                    let r = try d.request(.init(rawValue: method.uppercased())!, concrete, token: tokens[caller],
                                          body: method == "get" ? nil : [:])
                    let allowed: Bool
                    switch caller {
                    case .none, .garbage: allowed = false
                    case .patient: allowed = isPatientRoute
                    case .viewer: allowed = capability == "read"
                    case .nurse: allowed = capability == "read" || capability == "write"
                    case .admin: allowed = capability != nil
                    }
                    if allowed {
                        #expect(r.status != 401 && r.status != 403, "\(caller) \(method) \(path) → \(r.status) \(r.text)")
                    } else {
                        let expected = (caller == .none || caller == .garbage) ? 401 : 403
                        #expect(r.status == expected, "\(caller) \(method) \(path) → \(r.status), expected \(expected)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked >= 100)
    }

    @Test func aPatientTokenReachesOnlyThatPatientsData() throws {
        let d = try TestDaemon()
        let a = try Study.enrollAndActivate(d, "OWN-A"), b = try Study.enrollAndActivate(d, "OWN-B")
        let day = Study.date(-1)
        try d.request(.put, "/v1/me/days/\(day)", token: a, body: ["weightMorningKg": 81.5])
        try d.request(.put, "/v1/me/days/\(day)", token: b, body: ["weightMorningKg": 77.7])
        let seenByA = try d.request(.get, "/v1/me/days", token: a).text
        #expect(seenByA.contains("81.5") && !seenByA.contains("77.7"))
        let seenByB = try d.request(.get, "/v1/me/days", token: b).text
        #expect(seenByB.contains("77.7") && !seenByB.contains("81.5"))
    }

    @Test func forwardedForIsBelievedOnlyFromTrustedProxies() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in ["risk-model.json", "thresholds.json", "reminders.json", "instructions.json"] {
            try FileManager.default.copyItem(at: Repo.config.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        try #"{"trustedProxies": ["127.0.0.1"]}"#.write(to: dir.appendingPathComponent("trusted.json"), atomically: true, encoding: .utf8)
        let trusted = try TestDaemon(configFile: dir.appendingPathComponent("trusted.json"))
        try trusted.request(.get, "/healthz", headers: [("X-Forwarded-For", "198.51.100.9, 203.0.113.7")])
        try waitUntil { trusted.log.contains("ip=203.0.113.7") }
        // A client's own header line in front of the one its proxy appended does not pick its address.
        try trusted.request(.get, "/healthz", headers: [("X-Forwarded-For", "192.0.2.66"), ("X-Forwarded-For", "203.0.113.8")])
        try waitUntil { trusted.log.contains("ip=203.0.113.8") }
        #expect(!trusted.log.contains("ip=192.0.2.66"))
        let untrusted = try TestDaemon()
        try untrusted.request(.get, "/healthz", headers: [("X-Forwarded-For", "203.0.113.7")])
        try waitUntil { untrusted.log.contains("route=/healthz") && untrusted.log.contains("ip=127.0.0.1") }
        #expect(!untrusted.log.contains("203.0.113.7"))
    }
}
