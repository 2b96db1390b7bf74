// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "KeyedArchive",
    // Date.ISO8601FormatStyle (the .iso8601 date strategies) needs macOS 12 / iOS 15.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        .executable(name: "keyedarchive", targets: ["keyedarchive"]),
    ],
    targets: [
        // The library: property-list engine, archive object model, encoder, decoder, compatibility layer.
        .target(name: "KeyedArchive", dependencies: ["CacheHints", "StackBounds"], path: "Sources/KeyedArchive"),
        // Prefetch, which Swift cannot spell (C, inlined into the library). Not a product.
        .target(name: "CacheHints", path: "Sources/CacheHints"),
        // The current thread's stack bounds, which Swift cannot ask for on Linux (C). Not a product.
        .target(name: "StackBounds", path: "Sources/StackBounds"),
        // The command-line tool: `swift run keyedarchive --help`.
        .executableTarget(
            name: "keyedarchive",
            dependencies: ["KeyedArchive", "KeyedArchiveCodegen"],
            path: "Sources/keyedarchive"
        ),
        // `keyedarchive swift`'s generator (schema inference, naming, Swift emission), a target of
        // its own so that the tests reach it. Not a product.
        .target(name: "KeyedArchiveCodegen", dependencies: ["KeyedArchive"], path: "Sources/KeyedArchiveCodegen"),
        // Benchmarks: `swift run -c release keyedarchive-benchmark`.
        .executableTarget(
            name: "keyedarchive-benchmark",
            dependencies: ["KeyedArchive", "HostileArchives"],
            path: "Sources/KeyedArchiveBenchmark"
        ),
        // The migration story: `swift run migration-example`.
        .executableTarget(
            name: "migration-example",
            dependencies: ["KeyedArchive"],
            path: "Examples/migration-example",
            resources: [.copy("Resources/legacy-settings.plist")]
        ),
        // The ArchiveStore story: `swift run login-session-example`.
        .executableTarget(
            name: "login-session-example",
            dependencies: ["KeyedArchive"],
            path: "Examples/login-session"
        ),
        // Test support, not a product: a second process for ArchiveStore's crash and
        // cross-process tests (Tests/KeyedArchiveTests/Store).
        .executableTarget(
            name: "archive-store-test-helper",
            dependencies: ["KeyedArchive"],
            path: "Tests/ArchiveStoreTestHelper"
        ),
        // Valid keyed archives with malicious object graphs, for the tests, the benchmark and the
        // fuzz package (which reaches it through Fuzz/Sources/HostileArchives, a symlink). Not a product.
        .target(name: "HostileArchives", dependencies: ["KeyedArchive"], path: "Sources/HostileArchives"),
        // AddressSanitizer defaults for `swift test --sanitize=address` (C: it runs before Swift).
        .target(name: "SanitizerDefaults", path: "Tests/SanitizerDefaults"),
        .testTarget(
            name: "KeyedArchiveTests",
            dependencies: ["KeyedArchive", "KeyedArchiveCodegen", "HostileArchives", "SanitizerDefaults", "CacheHints"],
            path: "Tests/KeyedArchiveTests",
            exclude: ["CLI/Snapshots", "Hostile/Crashers", "Corpus/reachable_strings.py", "AppKitTypes/appkit_objects.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
