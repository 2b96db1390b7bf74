#!/usr/bin/env bash
# Builds the KeyedArchive documentation (Sources/KeyedArchive/KeyedArchive.docc plus the
# library's doc comments) into .build/docs, a static website.
#
#   bash Scripts/build-docs.sh
#   python3 -m http.server --directory .build/docs 8000
#   open http://localhost:8000/          (the root leads to /documentation/keyedarchive/)
#
# Uses only the toolchain: `swift build` emits the library's symbol graphs, and the
# toolchain's `docc convert` turns them and the catalog into the site. Any DocC warning
# (a broken symbol link, an unresolved article reference, a malformed doc comment) fails
# the script, and so does any link of the built site that leads to no page
# (Scripts/check-doc-links.py).
#
# The symbol-graph build uses its own scratch path (.build/docs-build) so that its compiler
# flags do not invalidate the main .build.
set -euo pipefail
cd "$(dirname "$0")/.."

module=KeyedArchive
catalog=Sources/$module/$module.docc
scratch=.build/docs-build
graphs=$scratch/symbol-graphs
module_graphs=$scratch/module-symbol-graphs
output=.build/docs

command -v docc >/dev/null || { echo "error: 'docc' not found on PATH (it ships with the Swift toolchain)" >&2; exit 1; }

rm -rf "$graphs" "$module_graphs"
mkdir -p "$graphs" "$module_graphs"
# The graphs are written when the module is emitted; removing the previous module makes
# an otherwise up-to-date build emit it (and the graphs) again, without recompiling.
find "$scratch" -path "*/Modules/$module.swiftmodule" -delete 2>/dev/null || true

echo "== Symbol graphs: swift build --target $module"
swift build --target "$module" --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
    -Xswiftc -emit-extension-block-symbols

# Only the library's own graphs: KeyedArchive.symbols.json and its extension graphs
# (KeyedArchive@Foundation.symbols.json, KeyedArchive@Swift.symbols.json).
shopt -s nullglob
found=("$graphs/$module.symbols.json" "$graphs/$module"@*.symbols.json)
shopt -u nullglob
if [[ ! -f "$graphs/$module.symbols.json" ]]; then
    echo "error: swift build wrote no $module.symbols.json into $graphs" >&2
    exit 1
fi
cp "${found[@]}" "$module_graphs/"

echo "== docc convert -> $output"
rm -rf "$output"
log=$scratch/docc.log
set +e
docc convert "$catalog" \
    --additional-symbol-graph-dir "$module_graphs" \
    --output-path "$output" \
    --transform-for-static-hosting \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.keyedarchive.$module" \
    --warnings-as-errors 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# --warnings-as-errors already fails on warnings; the grep is a second guard in case a
# docc version prints a warning without failing.
if [[ $status -ne 0 ]] || grep -qE '(^|[^a-z])(warning|error):' "$log"; then
    echo "error: docc reported problems (see above); the documentation must build without warnings" >&2
    exit 1
fi
# The site's root is DocC's page shell, which shows "The page you're looking for can't be
# found" at `/`: replace it with a redirect to the module's page (check-doc-links.py checks it).
cat > "$output/index.html" <<'EOF'
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>KeyedArchive documentation</title>
<meta http-equiv="refresh" content="0; url=documentation/keyedarchive/">
</head>
<body>
<p>The documentation is at <a href="documentation/keyedarchive/">documentation/keyedarchive/</a>.</p>
</body>
</html>
EOF
# Every link of every page must lead to a page of the site (DocC can write a breadcrumb to a
# page it never generates, and passes relative Markdown links through).
python3 Scripts/check-doc-links.py "$output"
echo "== Documentation in $output (serve it, e.g. python3 -m http.server --directory $output 8000, and open http://localhost:8000/)"
