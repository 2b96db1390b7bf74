// swift-tools-version: 6.0
// Fuzzing targets for KeyedArchive, kept out of the main build. See README.md here.
import PackageDescription

let keyedArchive: Target.Dependency = .product(name: "KeyedArchive", package: "KeyedArchive")

let fuzzTarget: (String) -> Target = { name in
    .executableTarget(name: name, dependencies: [keyedArchive], path: "Sources/\(name)")
}

let package = Package(
    name: "KeyedArchiveFuzz",
    dependencies: [.package(name: "KeyedArchive", path: "..")],
    targets: ["FuzzBinaryPlist", "FuzzXMLPlist", "FuzzArchiveView", "FuzzTypedDecode", "FuzzSecureDecode"].map(fuzzTarget) + [
        // The hostile-archive generator of the main package's tests and benchmark (not a product
        // there): Sources/HostileArchives is a symlink to ../../Sources/HostileArchives, one copy.
        .target(name: "HostileArchives", dependencies: [keyedArchive], path: "Sources/HostileArchives"),
        .executableTarget(name: "FuzzHostileGraph", dependencies: ["HostileArchives", keyedArchive], path: "Sources/FuzzHostileGraph"),
        // `keyedarchive swift`'s generator, compiled into the target (the main package's
        // KeyedArchiveCodegen target name is taken): Sources/FuzzSwiftCodegen/Codegen links to
        // ../../Sources/KeyedArchiveCodegen, the checker files to the tests', and ArchiveText.swift
        // to the library's escaping helper, which the generator uses and which is `package` there
        // (not visible from this package); AppKitInterpretations.swift stands in for the
        // library's `package` type of that name through the public appKitValue(of:).
        .executableTarget(name: "FuzzSwiftCodegen", dependencies: [keyedArchive], path: "Sources/FuzzSwiftCodegen"),
    ],
    swiftLanguageModes: [.v6]
)
