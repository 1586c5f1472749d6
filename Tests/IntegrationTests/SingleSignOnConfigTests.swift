import Foundation
import Testing

/// `console.oidc` that cannot work is refused by `--check-config` and at start alike, exit 78
/// naming the key: an issuer without https:// (loopback excepted), a missing or group-readable
/// client secret file, a group mapped to an unknown role, a redirect URL not ending in the
/// callback path, and (at start, against the database) a group mapped to a site that does not exist.
@Suite struct SingleSignOnConfigTests {
    static func config(issuer: String = "https://id.example.org/realms/ward", secret: String = "client-secret",
                       redirect: String = "https://ward.example.org/console/oidc/callback", roles: String = #"{"ward": "nurse"}"#,
                       sites: String = #"{"ward": ["main"]}"#) throws -> ConfigDirectory {
        let dir = try ConfigDirectory(server: """
            {"console": {"oidc": {"issuer": "\(issuer)", "clientId": "hyponatrack", "clientSecretFile": "\(secret)",
                                  "redirectURL": "\(redirect)", "groupsClaim": "groups", "roles": \(roles), "sites": \(sites)}}}
            """)
        try dir.write("s3cret-value\n", to: "client-secret", mode: 0o600)
        try dir.write("s3cret-value\n", to: "readable-secret", mode: 0o640)
        return dir
    }

    @Test(arguments: [
        (#"{"issuer": "http://id.example.org"}"#, "console.oidc.issuer: must be an https:// URL (http:// only on loopback)"),
        (#"{"secret": "missing-secret"}"#, "console.oidc.clientSecretFile"),
        (#"{"secret": "readable-secret"}"#, "must be readable by its owner only"),
        (#"{"roles": "{\"ward\": \"surgeon\"}"}"#, "console.oidc.roles.ward"),
        (#"{"redirect": "https://ward.example.org/console/callback"}"#, "console.oidc.redirectURL: must end in /console/oidc/callback"),
    ])
    func aConfigurationThatCannotSignAnyoneInIsRefusedNamingTheKey(change: String, key: String) throws {
        let values = try JSONSerialization.jsonObject(with: Data(change.utf8)) as? [String: String] ?? [:]
        let dir = try Self.config(issuer: values["issuer"] ?? "https://id.example.org/realms/ward", secret: values["secret"] ?? "client-secret",
                                  redirect: values["redirect"] ?? "https://ward.example.org/console/oidc/callback",
                                  roles: values["roles"] ?? #"{"ward": "nurse"}"#)
        try OperationsConfigTests.refusedByCheckAndStart(dir, dataDir: OperationsConfigTests.scratch("sso-data"), naming: key)
    }

    @Test func aLoopbackHTTPIssuerPassesTheCheck() throws {
        let dir = try Self.config(issuer: "http://127.0.0.1:8080/realms/ward")
        let check = try CheckConfigTests.check(dir, ["--data-dir", OperationsConfigTests.scratch("sso-data").path])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func aGroupMappedToASiteTheStudyLacksStopsTheStartNamingTheKey() throws {
        let dir = try Self.config(sites: #"{"ward": ["muc"]}"#)
        let start = OperationsConfigTests.startFailure(dir, dataDir: OperationsConfigTests.scratch("sso-data"))
        #expect(start.contains("exited at start (status 78)") && start.contains("console.oidc.sites.ward: no site muc"), "\(start)")
    }
}
