#!/usr/bin/env bash
# Compile check for `keyedarchive swift`: generates Swift for every archive in
# ../shared/corpus/apple and ../shared/corpus/apps and for the archives Foundation writes from
# Tests/KeyedArchiveTests/CLI/CodegenFixtures.swift and HostileCodegenFixtures.swift (keys,
# class names and a file name that try to inject code or clash with Foundation's names),
# compiles all of it in ONE scratch package (.build/codegen-check, depending on this package
# by path; one module per archive, so that every file's `Root` and types live in their own
# namespace), then decodes each archive with its own `Root`, using the line the generated
# header gives. No injected code may run: the decoding output must not show the payloads'
# marker. One more module holds several files generated with `--namespace` next to the
# app's own `Order`, `Person`, `Root` and `UnknownValue`, and decodes each of them too.
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
# (Archives with cycles decode: the generator writes two-phase classes for them.)
EXPECTED_FAILURES=(
)

echo "== building keyedarchive"
swift build --quiet --product keyedarchive
TOOL="$(swift build --show-bin-path)/keyedarchive"

rm -rf "$WORK/Sources" "$WORK/archives"
mkdir -p "$WORK/Sources/write-archives" "$WORK/archives/foundation" "$WORK/archives/hostile"
source Scripts/scratch-package.sh
manifest() {  # $1: extra targets (Swift source text)
  scratch_manifest "$WORK" CodegenCheck "        .executableTarget(name: \"write-archives\", path: \"Sources/write-archives\"),
$1"
}

echo "== writing archives with Foundation's NSKeyedArchiver"
cp "$ROOT/Tests/KeyedArchiveTests/CLI/CodegenFixtures.swift" "$ROOT/Tests/KeyedArchiveTests/CLI/HostileCodegenFixtures.swift" \
  "$WORK/Sources/write-archives/"
cat > "$WORK/Sources/write-archives/main.swift" <<'EOF'
import Foundation

let folder = URL(fileURLWithPath: CommandLine.arguments[1])
for (name, data) in try CodegenFixtures.all() {
    try data.write(to: folder.appendingPathComponent("foundation/" + name))
}
for (name, data) in try HostileCodegenFixtures.all() {
    try data.write(to: folder.appendingPathComponent("hostile/" + name))
}
print(HostileCodegenFixtures.marker)
EOF
manifest ""
swift build --quiet --package-path "$WORK" --product write-archives
MARKER="$("$WORK/.build/debug/write-archives" "$WORK/archives")"

# name|path for every archive, sorted. Paths may hold line breaks (a hostile file name):
# read NUL-separated; the Swift side reads them from a NUL-separated file, and names are
# shown with anything but [A-Za-z0-9._/-] replaced by `_`.
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
for folder in foundation hostile; do
  while IFS= read -r -d '' path; do
    ENTRIES+=("$folder/$(printf '%s' "${path##*/}" | LC_ALL=C tr -c 'A-Za-z0-9._/-' '_')|$path")
  done < <(find "$WORK/archives/$folder" -type f -print0 | LC_ALL=C sort -z)
done
PATHS="$WORK/archives/paths"
: > "$PATHS"

# checker FILE FUNCTION NAME: the Swift function FUNCTION that decodes NAME with the line
# the header of the generated FILE gives (`//     let root = try ...`).
checker() {
  local decode
  decode="$(grep -A1 '^// Decode it with:$' "$1" | sed -n '2s|^//     ||p' || true)"
  [ -n "$decode" ] || decode='let root = "(empty $top)"'
  cat <<EOF

/// Decodes $3 with the code generated for it.
public func $2(_ data: Data) throws -> String {
    $decode
    return String(describing: root)
}
EOF
}

echo "== generating Swift for ${#ENTRIES[@]} archives"
TARGETS=""
CASES=""
IMPORTS=""
declare -A INDEX_OF
index=0
for entry in "${ENTRIES[@]}"; do
  name="${entry%%|*}"
  path="${entry#*|}"
  printf '%s\0' "$path" >> "$PATHS"
  INDEX_OF["$name"]=$index
  index=$((index + 1))
  module="G$index"
  access=internal
  [ $((index % 2)) -eq 0 ] && access=public
  mkdir -p "$WORK/Sources/$module"
  "$TOOL" swift --access "$access" "$path" > "$WORK/Sources/$module/Generated.swift"
  { printf 'import Foundation\nimport KeyedArchive\n'; checker "$WORK/Sources/$module/Generated.swift" check "$name"; } \
    > "$WORK/Sources/$module/Check.swift"
  TARGETS+="        .target(name: \"$module\", dependencies: [.product(name: \"KeyedArchive\", package: \"$SCRATCH_PACKAGE_ID\")], path: \"Sources/$module\"),"$'\n'
  CASES+="    (\"$name\", $((index - 1)), $module.check),"$'\n'
  IMPORTS+="import $module"$'\n'
done

# Several files generated with --namespace in ONE module, beside the app's own types of the
# same names: archive|namespace|access.
NAMESPACED=(
  "foundation/foundation-shared.archive|LegacyShared|public"
  "foundation/foundation-top-keys.archive|LegacyTop|internal"
  "foundation/foundation-record.archive|LegacyRecord|public"
  "foundation/foundation-dictionaries.archive|LegacyDictionaries|internal"
  "hostile/hostile-reserved-names.archive|LegacyReserved|public"
  "hostile/hostile-module-prefixes.archive|LegacyModules|internal"
)
mkdir -p "$WORK/Sources/Namespaced"
cat > "$WORK/Sources/Namespaced/App.swift" <<'EOF'
// The app's own types, named like the generated ones.
struct Order { var id = 0 }
struct Person { var name = "" }
struct Root { var value = 0 }
struct CodegenPerson { var name = "" }
enum UnknownValue { case never }
EOF
for item in "${NAMESPACED[@]}"; do
  IFS='|' read -r name namespace access <<< "$item"
  file="$WORK/Sources/Namespaced/$namespace.swift"
  path="${ENTRIES[${INDEX_OF[$name]}]#*|}"
  "$TOOL" swift --namespace "$namespace" --access "$access" "$path" > "$file"
  checker "$file" "check$namespace" "$name in namespace $namespace" >> "$file"
  CASES+="    (\"$name as $namespace\", ${INDEX_OF[$name]}, Namespaced.check$namespace),"$'\n'
done
TARGETS+="        .target(name: \"Namespaced\", dependencies: [.product(name: \"KeyedArchive\", package: \"$SCRATCH_PACKAGE_ID\")], path: \"Sources/Namespaced\"),"$'\n'
IMPORTS+="import Namespaced"$'\n'

EXPECTED=""
[ ${#EXPECTED_FAILURES[@]} -gt 0 ] || EXPECTED=":"  # an empty dictionary literal
for item in "${EXPECTED_FAILURES[@]}"; do
  EXPECTED+="    \"${item%%|*}\": \"$(printf '%s' "${item#*|}" | sed 's/\\/\\\\/g; s/"/\\"/g')\","$'\n'
done

mkdir -p "$WORK/Sources/check-generated"
cat > "$WORK/Sources/check-generated/main.swift" <<EOF
import Foundation
$IMPORTS
let cases: [(name: String, path: Int, check: (Data) throws -> String)] = [
$CASES]
// The archives' paths, NUL-separated (a hostile file name holds line breaks).
let paths = try String(contentsOfFile: "$PATHS", encoding: .utf8).split(separator: "\0").map(String.init)
let expectedFailures: [String: String] = [
$EXPECTED]
var problems = 0
for item in cases {
    let data = try Data(contentsOf: URL(fileURLWithPath: paths[item.path]))
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
DEPENDENCIES="$(for ((i = 1; i <= index; i++)); do printf '"G%d", ' "$i"; done)\"Namespaced\", "
manifest "$TARGETS        .executableTarget(name: \"check-generated\", dependencies: [${DEPENDENCIES%, }], path: \"Sources/check-generated\"),"

echo "== compiling the generated code"
LOG="$WORK/build.log"
if ! swift build --package-path "$WORK" --product check-generated >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "error: the generated code does not compile" >&2
  exit 1
fi
if grep -E 'Sources/(G[0-9]+|Namespaced)/.*(warning|error):' "$LOG" >&2; then
  echo "error: the generated code compiles with warnings" >&2
  exit 1
fi

echo "== decoding each archive with its generated Root"
# Injected code would print the marker (and exit 3): it must never appear.
status=0
"$WORK/.build/debug/check-generated" > "$WORK/decode.log" 2>&1 || status=$?
cat "$WORK/decode.log"
if grep -qxF "$MARKER" "$WORK/decode.log"; then
  echo "error: code injected through an archive ran (its marker '$MARKER' was printed)" >&2
  exit 1
fi
[ "$status" -eq 0 ] || exit "$status"
echo "== done in $(( $(date +%s) - START )) s"
