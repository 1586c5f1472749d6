// swift-tools-version:6.0
import PackageDescription

// Layout (see README "Architecture"):
// - C system libraries are wrapped one each (CSQLite, CCurl, CMicroHTTPD, COpenSSL) and only
//   imported by their single Swift wrapper (SQLite, HTTPClient, HTTPServer, Crypto).
// - CHyponaShims holds the typed C functions Swift cannot import (variadics, cast macros).
// - HyponaTrackCore is the pure clinical core: no I/O, no clock, no C.
// - HyponaTrackKit is the application layer shared by the daemon and the CLI.
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "HyponaTrack",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hyponatrackd", targets: ["hyponatrackd"]),
        .executable(name: "hyponatrack", targets: ["hyponatrack"]),
    ],
    targets: [
        // MARK: C libraries (system library targets) and shims
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl"),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD"),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL"),
        .target(name: "CHyponaShims", dependencies: ["CSQLite", "CCurl", "CMicroHTTPD"],
                path: "Sources/CHyponaShims"),

        // MARK: Thin wrappers, one per C library
        .target(name: "Crypto", dependencies: ["COpenSSL"], swiftSettings: swift6),
        .target(name: "SQLite", dependencies: ["CSQLite", "CHyponaShims"], swiftSettings: swift6),
        .target(name: "HTTPClient", dependencies: ["CCurl", "CHyponaShims", "Crypto"], swiftSettings: swift6),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CHyponaShims"], swiftSettings: swift6),

        // MARK: Pure Swift
        .target(name: "HTJSON", swiftSettings: swift6),
        .target(name: "HyponaTrackCore", dependencies: ["HTJSON"], swiftSettings: swift6),
        .target(name: "HyponaTrackKit",
                dependencies: ["HyponaTrackCore", "HTJSON", "Crypto"],
                swiftSettings: swift6),

        // MARK: Executables
        .executableTarget(name: "hyponatrackd",
                          dependencies: ["HyponaTrackKit", "SQLite", "HTTPClient", "HTTPServer", "Crypto"],
                          swiftSettings: swift6),
        .executableTarget(name: "hyponatrack", dependencies: ["HyponaTrackKit"], swiftSettings: swift6),
        .executableTarget(name: "bench-core", dependencies: ["HyponaTrackCore", "HyponaTrackKit"],
                          path: "Benchmarks/bench-core", swiftSettings: swift6),

        // MARK: Tests
        .testTarget(name: "HTJSONTests", dependencies: ["HTJSON"], swiftSettings: swift6),
        .testTarget(name: "HyponaTrackCoreTests", dependencies: ["HyponaTrackCore", "HyponaTrackKit", "HTJSON"],
                    swiftSettings: swift6),
        .testTarget(name: "HyponaTrackKitTests", dependencies: ["HyponaTrackKit", "HyponaTrackCore", "HTJSON"],
                    swiftSettings: swift6),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"], swiftSettings: swift6),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"], swiftSettings: swift6),
        .testTarget(name: "WrapperSmokeTests", dependencies: ["SQLite", "HTTPClient", "HTTPServer", "Crypto"],
                    swiftSettings: swift6),
    ]
)
