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
typecheck() { # name, module name, then source folders
  local name=$1 module=$2; shift 2
  if swiftc "${common[@]}" -typecheck -parse-as-library -module-name "$module" $(find "$@" -name '*.swift' | sort) \
      > "$logs/$name.log" 2>&1; then
    echo "check-apple-platforms: $name: ok"
  else
    echo "check-apple-platforms: $name: FAILED"; grep -E "error:" "$logs/$name.log" | grep -v '^ ' | sort -u | head -40
    fail=1
  fi
}
typecheck "KeyedArchive bodies" KeyedArchive Sources/KeyedArchive
typecheck "KeyedArchiveCodegen bodies" KeyedArchiveCodegen Sources/KeyedArchiveCodegen
# HostileArchives is a module the benchmark imports: emit it, then check the benchmark.
if swiftc "${common[@]}" -emit-module -wmo -parse-as-library -module-name HostileArchives \
    -emit-module-path "$cache/out/modules/HostileArchives.swiftmodule" $(find Sources/HostileArchives -name '*.swift' | sort) \
    > "$logs/HostileArchives.log" 2>&1; then
  echo "check-apple-platforms: HostileArchives: ok"
  if swiftc "${common[@]}" -typecheck -module-name keyedarchive_benchmark $(find Sources/KeyedArchiveBenchmark -name '*.swift' | sort) \
      > "$logs/benchmark.log" 2>&1; then
    echo "check-apple-platforms: keyedarchive-benchmark: ok"
  else
    echo "check-apple-platforms: keyedarchive-benchmark: FAILED"; grep -E "error:" "$logs/benchmark.log" | grep -v '^ ' | sort -u | head -40
    fail=1
  fi
else
  echo "check-apple-platforms: HostileArchives: FAILED"; grep -E "error:" "$logs/HostileArchives.log" | grep -v '^ ' | sort -u | head -40
  fail=1
fi
exit $fail
