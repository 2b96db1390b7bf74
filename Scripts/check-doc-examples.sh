#!/usr/bin/env bash
# Compiles every Swift code block of README.md and of the DocC catalog's articles
# (Sources/KeyedArchive/KeyedArchive.docc/*.md) against the library, so that an example
# that stops compiling fails CI.
#
# Scripts/extract-doc-examples.py writes the blocks into a scratch package,
# .build/doc-examples (one file per article, its blocks in nested scopes so that they build
# on each other; Scripts/doc-examples/Shared.swift beside them for the names the examples
# use without declaring), and the script compiles its one module with `swiftc` against the
# library the main build made (`swift build --show-bin-path`, built here if it is missing),
# in seconds, instead of building the library once more. The package's manifest depends on
# this checkout by path, for opening the examples in an editor or building them by hand
# (`swift build --package-path .build/doc-examples`).
#
# Blocks marked `<!-- fragment -->` on the line before the fence are skipped; a block that
# starts with `// swift-tools-version:` is a package manifest, checked with
# `swift package dump-package`. Errors name the Markdown file and line. Warnings fail too,
# except "value never used" (examples show values without using them).
# WorkingOnKeyedArchive.md ("Examples that compile") documents the conventions.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
WORK="$ROOT/.build/doc-examples"
START=$(date +%s)

if ! command -v python3 >/dev/null; then
  if [ "${CI:-}" = "true" ]; then echo "error: python3 is missing" >&2; exit 1; fi
  echo "note: python3 is missing: the documentation's examples are not checked"
  exit 0
fi

articles=(README.md Sources/KeyedArchive/KeyedArchive.docc/*.md)
rm -rf "$WORK/Sources" "$WORK/manifests"
python3 Scripts/extract-doc-examples.py "$WORK" "${articles[@]}"
cp Scripts/doc-examples/Shared.swift "$WORK/Sources/DocExamples/Shared.swift"
source Scripts/scratch-package.sh
scratch_manifest "$WORK" DocExamples "        .target(name: \"DocExamples\", dependencies: [.product(name: \"KeyedArchive\", package: \"$SCRATCH_PACKAGE_ID\")]),"

bin="$(swift build --show-bin-path)"
source Scripts/library-module-maps.sh
if [ ! -f "$bin/Modules/KeyedArchive.swiftmodule" ] || ! library_module_maps "$bin"; then
  echo "== building the library (swift build --target KeyedArchive)"
  swift build --quiet --target KeyedArchive
  library_module_maps "$bin"
fi

echo "== compiling the examples"
LOG="$WORK/build.log"
status=0
swiftc -c -wmo -swift-version 6 -parse-as-library -module-name DocExamples \
  -I "$bin/Modules" "${moduleMaps[@]}" \
  "$WORK"/Sources/DocExamples/*.swift -o "$WORK/DocExamples.o" >"$LOG" 2>&1 || status=$?
if [ $status -ne 0 ]; then
  grep -E '^[^ ].*error:' "$LOG" >&2 || cat "$LOG" >&2
  echo "error: a documentation example does not compile (the file and line are those of the Markdown;" \
    "the compiler's whole output is in ${LOG#"$ROOT/"}, the Swift it compiled in ${WORK#"$ROOT/"}/Sources)" >&2
  exit 1
fi
if grep -E '(warning|error):' "$LOG" | grep -v '\[#no-usage\]' >&2; then
  echo "error: a documentation example compiles with warnings" >&2
  exit 1
fi

for manifest in "$WORK"/manifests/*/; do
  [ -f "$manifest/Package.swift" ] || continue
  if ! swift package dump-package --package-path "$manifest" >/dev/null 2>"$WORK/manifest.log"; then
    cat "$WORK/manifest.log" >&2
    echo "error: the manifest example $(basename "$manifest") (article-line) does not load" >&2
    exit 1
  fi
  echo "ok      manifest $(basename "$manifest")"
done
echo "== done in $(( $(date +%s) - START )) s"
