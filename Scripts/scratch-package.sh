# Sourced by the scripts that build a scratch package against this checkout
# (check-generated-code.sh, check-doc-examples.sh).
#
# scratch_manifest DIR NAME TARGETS: writes DIR/Package.swift for a package NAME that depends
# on the checkout at $ROOT by path, with TARGETS (Swift source text, one target a line, each
# ending in a comma). Targets name the library as `.product(name: "KeyedArchive", package:
# "$SCRATCH_PACKAGE_ID")`, the identity SwiftPM gives a path dependency.
SCRATCH_PACKAGE_ID="$(basename "$ROOT" | tr '[:upper:]' '[:lower:]')"
scratch_manifest() {
  cat > "$1/Package.swift" <<EOF
// swift-tools-version: 6.0
// Written by Scripts/$(basename "$0"); do not edit.
import PackageDescription

let package = Package(
    name: "$2",
    dependencies: [.package(path: "$ROOT")],
    targets: [
$3
    ],
    swiftLanguageModes: [.v6]
)
EOF
}
