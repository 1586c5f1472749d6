// swift-tools-version:6.0
import PackageDescription

// Layout (see README "Architecture"):
// - C system libraries are wrapped one each (CSQLite, CCurl, CMicroHTTPD, COpenSSL) and only
//   imported by their single Swift wrapper (SQLite, HTTPClient, HTTPServer, Crypto; CCairo → PDFCanvas;
//   CQRencode → QRCode).
// - C*Shims hold the typed C functions Swift cannot import (variadics, cast macros), one per library.
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
        // cairo + pango + pangocairo (libcairo2-dev, libpango1.0-dev): the PDF report.
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // libqrencode (libqrencode-dev): the activation QR code.
        .systemLibrary(name: "CQRencode", path: "Sources/CQRencode", pkgConfig: "libqrencode",
                       providers: [.apt(["libqrencode-dev"])]),
        .target(name: "CSQLiteShims", dependencies: ["CSQLite"], linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "CCurlShims", dependencies: ["CCurl"], linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "CMHDShims", dependencies: ["CMicroHTTPD"], linkerSettings: [.linkedLibrary("microhttpd")]),

        // MARK: Thin wrappers, one per C library
        .target(name: "Crypto", dependencies: ["COpenSSL", "HTJSON"], swiftSettings: swift6),
        .target(name: "SQLite", dependencies: ["CSQLite", "CSQLiteShims"], swiftSettings: swift6),
        .target(name: "HTTPClient", dependencies: ["CCurl", "CCurlShims", "Crypto", "HTTPTypes"], swiftSettings: swift6),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CMHDShims", "HTJSON", "HTTPTypes"], swiftSettings: swift6),
        // PDF documents over cairo and pango: pages, paths, text laid out and measured. No chart or report knowledge.
        .target(name: "PDFCanvas", dependencies: ["CCairo"], swiftSettings: swift6),
        // Zip archives (central directory, streamed inflate of one entry) over zlib.
        .target(name: "Zip", dependencies: ["CZlib"], swiftSettings: swift6),
        // QR codes over libqrencode: the module matrix, inline SVG (as `HTML`) and terminal half blocks.
        .target(name: "QRCode", dependencies: ["CQRencode", "HTML"], swiftSettings: swift6),

        // MARK: Pure Swift
        // HTTP vocabulary (headers, method, status) shared by the server and the client wrappers.
        .target(name: "HTTPTypes", swiftSettings: swift6),
        .target(name: "HTJSON", swiftSettings: swift6),
        // HTML that escapes every interpolated value by construction (the console's pages).
        .target(name: "HTML", swiftSettings: swift6),
        .target(name: "HyponaTrackCore", dependencies: ["HTJSON"], swiftSettings: swift6),
        // The trend-chart model, its layout and the SVG renderer: no dependencies, no I/O. The
        // console's inline SVG and the PDF report draw the same layout.
        .target(name: "Charts", swiftSettings: swift6),
        // Imports without I/O policy: FHIR sodium Observations, the Apple Health export's streaming
        // XML reader and its per-day reductions (docs/product.md, "Imports, proposed then confirmed").
        .target(name: "Imports", dependencies: ["HyponaTrackCore", "HTJSON", "Zip"], swiftSettings: swift6),
        .target(name: "HyponaTrackKit",
                dependencies: ["HyponaTrackCore", "HTJSON", "Crypto"],
                swiftSettings: swift6),
        // The layers the compiler keeps (README, "Architecture"). The domain: services, repositories
        // and schema, alerting, the scheduler, the hook and sync outboxes and workers, the report.
        // It never sees the HTTP server or HTML.
        .target(name: "HyponaTrackDomain",
                dependencies: ["HyponaTrackCore", "HyponaTrackKit", "Charts", "HTJSON", "Crypto", "SQLite", "HTTPTypes", "HTTPClient",
                               "PDFCanvas", "Imports"],
                swiftSettings: swift6),
        // The configuration file: reads hyponatrack.json into the domain's typed ServerConfiguration,
        // naming the file and the key of a mistake. The domain has no JSONValue; this target does.
        // Never the HTTP server, HTML or SQLite (scripts/check-layers).
        .target(name: "HyponaTrackConfigFile",
                dependencies: ["HyponaTrackDomain", "HyponaTrackCore", "HTJSON", "HTTPTypes"],
                swiftSettings: swift6),
        // The web: API routes, console pages, patient pages, the OpenAPI document. It reaches the
        // data only through the domain's services, never SQLite.
        .target(name: "HyponaTrackWeb",
                dependencies: ["HyponaTrackDomain", "HyponaTrackCore", "HyponaTrackKit", "Charts", "HTML", "HTJSON", "Crypto",
                               "HTTPServer", "Imports", "QRCode"],
                swiftSettings: swift6),
        // The daemon: the application assembled from configuration, the listener, lifecycle,
        // signals and systemd.
        .target(name: "HyponaTrackServer",
                dependencies: ["HyponaTrackDomain", "HyponaTrackConfigFile", "HyponaTrackWeb", "HyponaTrackCore", "HyponaTrackKit", "HTJSON", "Crypto",
                               "HTTPServer"],
                swiftSettings: swift6),
        // The command line: offline evaluator and the staff commands (an HTTP client of the daemon).
        .target(name: "HyponaTrackCLI",
                dependencies: ["HyponaTrackKit", "HyponaTrackCore", "HTJSON", "HTTPClient", "QRCode"],
                swiftSettings: swift6),

        // MARK: Executables
        .executableTarget(name: "hyponatrackd",
                          dependencies: ["HyponaTrackServer", "HyponaTrackKit", "Crypto"],
                          swiftSettings: swift6),
        .executableTarget(name: "hyponatrack", dependencies: ["HyponaTrackCLI"], swiftSettings: swift6),
        .executableTarget(name: "bench-core", dependencies: ["HyponaTrackCore", "HyponaTrackKit"],
                          path: "Benchmarks/bench-core", swiftSettings: swift6),

        // Parse and reduce an Apple Health export.xml (the import's speed and peak RSS).
        .executableTarget(name: "bench-import", dependencies: ["Imports", "HyponaTrackCore"],
                          path: "Benchmarks/bench-import", swiftSettings: swift6),

        // Reading the stored reasons column: HTJSON beside Foundation's JSONDecoder (scripts/bench-reasons).
        .executableTarget(name: "bench-reasons", dependencies: ["HyponaTrackDomain", "HyponaTrackCore"],
                          path: "Benchmarks/bench-reasons", swiftSettings: swift6),

        .executableTarget(name: "bench-ingest", dependencies: ["SQLite", "HTJSON", "Crypto"],
                          path: "Benchmarks/bench-ingest", swiftSettings: swift6),

        // MARK: Tests
        .testTarget(name: "HTJSONTests", dependencies: ["HTJSON"], swiftSettings: swift6),
        .testTarget(name: "ChartsTests", dependencies: ["Charts"], swiftSettings: swift6),
        .testTarget(name: "HTMLTests", dependencies: ["HTML"], swiftSettings: swift6),
        .testTarget(name: "HyponaTrackCoreTests", dependencies: ["HyponaTrackCore", "HyponaTrackKit", "HTJSON"],
                    swiftSettings: swift6),
        .testTarget(name: "HyponaTrackKitTests", dependencies: ["HyponaTrackKit", "HyponaTrackCLI", "HyponaTrackCore", "HTJSON"],
                    swiftSettings: swift6),
        // What the server's tests share: the in-process application, a settable clock and the
        // scheduler simulation, test databases and logs (built with testing enabled: debug only).
        .target(name: "HyponaTrackTestSupport",
                dependencies: ["HyponaTrackServer", "HyponaTrackDomain", "HyponaTrackWeb", "HyponaTrackCore", "HyponaTrackKit",
                               "HTJSON", "SQLite", "HTTPServer"],
                path: "Tests/TestSupport", swiftSettings: swift6),
        .testTarget(name: "HyponaTrackServerTests",
                    dependencies: ["HyponaTrackTestSupport", "HyponaTrackServer", "HyponaTrackDomain", "HyponaTrackConfigFile", "HyponaTrackWeb", "HyponaTrackCore", "HyponaTrackKit",
                                   "Charts", "HTJSON", "SQLite", "Crypto", "PDFCanvas", "HTTPServer", "HTTPClient", "HTML"],
                    swiftSettings: swift6),
        // `waitUntil`, shared by the HTTP client's and server's tests.
        .target(name: "TestPolling", path: "Tests/Polling", swiftSettings: swift6),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "HTTPServer", "TestPolling"], swiftSettings: swift6),
        // Runs the real hyponatrackd and hyponatrack binaries (built first by scripts/test).
        // HyponaTrackTestSupport and the web layer only for the route table the sites' authorisation
        // matrix is generated from (SiteMatrixTests); every request goes to the real daemon.
        .testTarget(name: "IntegrationTests", dependencies: ["HTJSON", "HTTPClient", "Crypto", "TestCommands", "HyponaTrackTestSupport",
                                                            "HyponaTrackWeb", "HyponaTrackDomain"], swiftSettings: swift6),
        .testTarget(name: "ImportsTests", dependencies: ["Imports", "Zip", "HyponaTrackCore", "HTJSON"], swiftSettings: swift6),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"], swiftSettings: swift6),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestPolling"], swiftSettings: swift6),
        // Running the third-party checkers (Python libraries, openssl, rsvg-convert, zbarimg) from tests.
        .target(name: "TestCommands", path: "Tests/Commands", swiftSettings: swift6),
        // The crypto wrapper: base64, and the push keys, JWTs (ES256, RS256), Web Push encryption
        // and VAPID checked by third-party Python libraries (cryptography, PyJWT, py_vapid, http_ece)
        // in a cached venv (scripts/push-crypto-peer).
        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "TestCommands"], swiftSettings: swift6),
        // QR codes decoded by a real reader (zbarimg) from the SVG as librsvg renders it.
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "HTML", "TestCommands"], swiftSettings: swift6),
        .testTarget(name: "WrapperSmokeTests", dependencies: ["SQLite", "HTTPClient", "HTTPServer", "Crypto", "PDFCanvas"],
                    swiftSettings: swift6),
    ]
)
