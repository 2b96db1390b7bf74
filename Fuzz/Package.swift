// swift-tools-version: 6.0
// Fuzzing targets for KeyedArchive, kept out of the main build. See README.md here.
import PackageDescription

let fuzzTarget: (String) -> Target = { name in
    .executableTarget(name: name, dependencies: [.product(name: "KeyedArchive", package: "KeyedArchive")], path: "Sources/\(name)")
}

let package = Package(
    name: "KeyedArchiveFuzz",
    dependencies: [.package(name: "KeyedArchive", path: "..")],
    targets: ["FuzzBinaryPlist", "FuzzXMLPlist", "FuzzArchiveView", "FuzzTypedDecode", "FuzzSecureDecode"].map(fuzzTarget),
    swiftLanguageModes: [.v6]
)
