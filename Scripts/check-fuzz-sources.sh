#!/usr/bin/env bash
# Type-checks each target of the fuzz package (Fuzz/) against the library the main build has
# just made, in seconds, so that CI notices when one stops building. The fuzz package is
# otherwise built only by Fuzz/run.sh (a release build with sanitizers, minutes), and it is a
# package of its own: it sees the library's public API only, not its `package` declarations
# (which is how FuzzSwiftCodegen once stopped building unnoticed). Run after `swift build`;
# CI runs it after `swift build --build-tests`.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(swift build --show-bin-path)
modules="$bin/Modules"
source Scripts/library-module-maps.sh
if [ ! -d "$modules" ] || ! library_module_maps "$bin"; then
    echo "check-fuzz-sources: build the package first (swift build)" >&2
    exit 2
fi
status=0
for dir in Fuzz/Sources/*/; do
    target=$(basename "$dir")
    mapfile -t files < <(find -L "$dir" -name '*.swift' | sort)
    # Executable targets have a main.swift; HostileArchives is a library target there.
    mode=()
    [ -f "$dir/main.swift" ] || mode=(-parse-as-library)
    if swiftc -typecheck -swift-version 6 -package-name keyedarchivefuzz -module-name "$target" "${mode[@]}" \
        -I "$modules" "${moduleMaps[@]}" "${files[@]}"; then
        echo "ok      $target (${#files[@]} files)"
    else
        echo "FAILED  $target: it would not build in Fuzz/ (see the errors above)" >&2
        status=1
    fi
done
exit $status
