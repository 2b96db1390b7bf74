#!/usr/bin/env bash
# Apple platforms without a Mac: runs the shared iOS SDK check (../shared/tools/apple-sdk:
# the library and KeyedArchiveCodegen as modules, the tool and the examples type-checked),
# then type-checks what that check leaves out, against the same SDK: the library's and the
# generator's function bodies (the shared check emits their modules without them), and the
# HostileArchives and benchmark targets. Skips (exit 0) where the SDK snapshot is absent, as
# the shared check does; fails on any error where it is present.
set -uo pipefail
cd "$(dirname "$0")/.."
check=../shared/tools/apple-sdk/apple-sdk-check.sh
if [ ! -f "$check" ]; then
  echo "check-apple-platforms: skipped: no $check"
  exit 0
fi
out=$(bash "$check" 2>&1); status=$?
echo "$out"
case "$out" in *skipped*) exit 0 ;; esac
[ $status = 0 ] || exit $status

cache=${TMPDIR:-/tmp}/keyedarchive-apple-sdk
common=(-target arm64-apple-ios16.0 -sdk "$cache/iPhoneOS16.5.sdk" -resource-dir "$cache/resource" -swift-version 6
        -package-name keyedarchive -D KEYEDARCHIVE_SDK_BEFORE_IOS18 -I "$cache/out/modules")
for inc in "$cache"/out/c/*/; do common+=(-I "$inc"); done
logs=$cache/out/bodies; mkdir -p "$logs"
fail=0
step() { # name, then swiftc arguments; the errors printed and `fail` set when it fails
  local name=$1; shift
  if swiftc "${common[@]}" "$@" > "$logs/$name.log" 2>&1; then
    echo "check-apple-platforms: $name: ok"
  else
    echo "check-apple-platforms: $name: FAILED"; grep -E "error:" "$logs/$name.log" | grep -v '^ ' | sort -u | head -40
    fail=1
    return 1
  fi
}
sources() { find "$1" -name '*.swift' | sort; }
step "KeyedArchive bodies" -typecheck -parse-as-library -module-name KeyedArchive $(sources Sources/KeyedArchive)
step "KeyedArchiveCodegen bodies" -typecheck -parse-as-library -module-name KeyedArchiveCodegen $(sources Sources/KeyedArchiveCodegen)
# HostileArchives is a module the benchmark imports: emit it, then check the benchmark.
step HostileArchives -emit-module -wmo -parse-as-library -module-name HostileArchives \
    -emit-module-path "$cache/out/modules/HostileArchives.swiftmodule" $(sources Sources/HostileArchives) &&
  step keyedarchive-benchmark -typecheck -module-name keyedarchive_benchmark $(sources Sources/KeyedArchiveBenchmark)
exit $fail
