#!/usr/bin/env bash
# Compile check for `keyedarchive swift`: generates Swift for every archive in
# ../shared/corpus/apple and ../shared/corpus/apps and for the archives Foundation writes from
# Tests/KeyedArchiveTests/CLI/CodegenFixtures.swift, compiles all of it in ONE scratch
# package (.build/codegen-check, depending on this package by path; one module per
# archive, so that every file's `Root` and types live in their own namespace), then
# decodes each archive with its own `Root`, using the line the generated header gives.
#
# Files alternate between `--access internal` and `--access public`.
# Exit status 0 when everything compiles and every archive decodes, except those listed
# in EXPECTED_FAILURES below, which must still fail (so that a stale entry is noticed).
# Under CI=true a missing corpus is a failure; otherwise the corpus part is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
WORK="$ROOT/.build/codegen-check"
CORPUS="$ROOT/../shared/corpus/apple"
APPS="$ROOT/../shared/corpus/apps"
START=$(date +%s)

# Archives typed decoding refuses by design, each with the reason; each must still fail
# (a stale entry is reported), so this list stays true.
EXPECTED_FAILURES=(
  "apple/nskeyedunarchiver-rs/circularReference.plist|an array that contains itself: typed decoding refuses cycles by design (corpus README)"
  "foundation/foundation-cycle.archive|two objects that refer to each other: typed decoding refuses cycles by design"
  # Archives real apps wrote (../shared/corpus/apps) whose graphs have cycles.
  "apps/core-data-model/CoreDataBooks-layout|cyclic graph: issue 28"
  "apps/core-data-model/TopSongs-elements|cyclic graph: issue 28"
  "apps/documents/PaintCode-SampleStyleKit.pcvd|cyclic graph: issue 28"
  "apps/interface-builder/DrawKit-MainMenu.nib|cyclic graph: issue 28"
  "apps/interface-builder/Journler-CalendarControl.nib|cyclic graph: issue 28"
  "apps/interface-builder/OgreKit-AdvancedFindPanel-compiled.nib|cyclic graph: issue 28"
  "apps/interface-builder/iMediaBrowser-Links-xml.nib|cyclic graph: issue 28"
  "apps/interface-builder/nv-MainMenu.nib|cyclic graph: issue 28"
  "apps/scenekit/Fox2-character_max.scn|cyclic graph: issue 28"
  "apps/scenekit/particles.scn|cyclic graph: issue 28"
)

echo "== building keyedarchive"
swift build --quiet --product keyedarchive
TOOL="$(swift build --show-bin-path)/keyedarchive"

rm -rf "$WORK/Sources" "$WORK/archives"
mkdir -p "$WORK/Sources/write-archives" "$WORK/archives/foundation"
PACKAGE_ID="$(basename "$ROOT" | tr '[:upper:]' '[:lower:]')"

manifest() {  # $1: extra targets (Swift source text)
  cat > "$WORK/Package.swift" <<EOF
// swift-tools-version: 6.0
// Written by Scripts/check-generated-code.sh; do not edit.
import PackageDescription

let package = Package(
    name: "CodegenCheck",
    dependencies: [.package(path: "$ROOT")],
    targets: [
        .executableTarget(name: "write-archives", path: "Sources/write-archives"),
$1
    ],
    swiftLanguageModes: [.v6]
)
EOF
}

echo "== writing archives with Foundation's NSKeyedArchiver"
cp "$ROOT/Tests/KeyedArchiveTests/CLI/CodegenFixtures.swift" "$WORK/Sources/write-archives/CodegenFixtures.swift"
cat > "$WORK/Sources/write-archives/main.swift" <<'EOF'
import Foundation

let folder = URL(fileURLWithPath: CommandLine.arguments[1])
for (name, data) in try CodegenFixtures.all() {
    try data.write(to: folder.appendingPathComponent(name))
}
EOF
manifest ""
swift build --quiet --package-path "$WORK" --product write-archives
"$WORK/.build/debug/write-archives" "$WORK/archives/foundation"

# name|path for every archive, sorted.
ENTRIES=()
if [ -d "$CORPUS" ]; then
  while IFS= read -r path; do
    ENTRIES+=("apple/${path#"$CORPUS/"}|$path")
  done < <(find "$CORPUS" -type f ! -name '*.md' | LC_ALL=C sort)
elif [ "${CI:-}" = "true" ]; then
  echo "error: the shared corpus is missing ($CORPUS)" >&2
  exit 1
else
  echo "note: the shared corpus is absent ($CORPUS): only Foundation-written archives are checked"
fi
if [ -d "$APPS" ]; then
  while IFS= read -r path; do
    ENTRIES+=("apps/${path#"$APPS/"}|$path")
  done < <(find "$APPS" -type f ! -name '*.md' | LC_ALL=C sort)
fi
while IFS= read -r path; do
  ENTRIES+=("foundation/$(basename "$path")|$path")
done < <(find "$WORK/archives/foundation" -type f | LC_ALL=C sort)

echo "== generating Swift for ${#ENTRIES[@]} archives"
TARGETS=""
CASES=""
IMPORTS=""
index=0
for entry in "${ENTRIES[@]}"; do
  name="${entry%%|*}"
  path="${entry#*|}"
  index=$((index + 1))
  module="G$index"
  access=internal
  [ $((index % 2)) -eq 0 ] && access=public
  mkdir -p "$WORK/Sources/$module"
  "$TOOL" swift --access "$access" "$path" > "$WORK/Sources/$module/Generated.swift"
  # The decoding line from the generated header ("//     let root = try ...").
  decode="$(grep -A1 '^// Decode it with:$' "$WORK/Sources/$module/Generated.swift" | sed -n '2s|^//     ||p')"
  [ -n "$decode" ] || decode='let root = "(empty $top)"'
  cat > "$WORK/Sources/$module/Check.swift" <<EOF
import Foundation
import KeyedArchive

/// Decodes $name with the code generated for it.
public func check(_ data: Data) throws -> String {
    $decode
    return String(describing: root)
}
EOF
  TARGETS+="        .target(name: \"$module\", dependencies: [.product(name: \"KeyedArchive\", package: \"$PACKAGE_ID\")], path: \"Sources/$module\"),"$'\n'
  CASES+="    (\"$name\", \"$path\", $module.check),"$'\n'
  IMPORTS+="import $module"$'\n'
done

EXPECTED=""
for item in "${EXPECTED_FAILURES[@]}"; do
  EXPECTED+="    \"${item%%|*}\": \"$(printf '%s' "${item#*|}" | sed 's/\\/\\\\/g; s/"/\\"/g')\","$'\n'
done

mkdir -p "$WORK/Sources/check-generated"
cat > "$WORK/Sources/check-generated/main.swift" <<EOF
import Foundation
$IMPORTS
let cases: [(name: String, path: String, check: (Data) throws -> String)] = [
$CASES]
let expectedFailures: [String: String] = [
$EXPECTED]
var problems = 0
for item in cases {
    let data = try Data(contentsOf: URL(fileURLWithPath: item.path))
    do {
        let decoded = try item.check(data)
        if expectedFailures[item.name] != nil {
            print("STALE   \(item.name): now decodes; remove it from EXPECTED_FAILURES in Scripts/check-generated-code.sh")
            problems += 1
        } else {
            print("ok      \(item.name) (\(decoded.count) characters decoded)")
        }
    } catch {
        if let reason = expectedFailures[item.name] {
            print("known   \(item.name): \(reason)\n          error: \(String(describing: error).prefix(200))")
        } else {
            print("FAILED  \(item.name): \(error)")
            problems += 1
        }
    }
}
print("\(cases.count) archives, \(problems) problem\(problems == 1 ? "" : "s")")
exit(problems == 0 ? 0 : 1)
EOF
DEPENDENCIES="$(for ((i = 1; i <= index; i++)); do printf '"G%d", ' "$i"; done)"
manifest "$TARGETS        .executableTarget(name: \"check-generated\", dependencies: [${DEPENDENCIES%, }], path: \"Sources/check-generated\"),"

echo "== compiling the generated code"
LOG="$WORK/build.log"
if ! swift build --package-path "$WORK" --product check-generated >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "error: the generated code does not compile" >&2
  exit 1
fi
if grep -E 'Sources/G[0-9]+/.*(warning|error):' "$LOG" >&2; then
  echo "error: the generated code compiles with warnings" >&2
  exit 1
fi

echo "== decoding each archive with its generated Root"
"$WORK/.build/debug/check-generated"
echo "== done in $(( $(date +%s) - START )) s"
