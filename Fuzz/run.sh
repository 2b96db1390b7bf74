#!/usr/bin/env bash
# Runs each fuzz target for SECONDS (default 600) and reports executions and findings.
#   Fuzz/run.sh [SECONDS] [TARGET...]
# Seeds: ../shared/corpus (read only). New inputs: Fuzz/.corpus/TARGET. Crashes, leaks,
# timeouts: Fuzz/.artifacts/TARGET-*. Copy a fixed crasher into
# Tests/KeyedArchiveTests/Hostile/Crashers/ so `swift test` replays it forever.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzBinaryPlist FuzzXMLPlist FuzzArchiveView FuzzTypedDecode FuzzSecureDecode FuzzHostileGraph FuzzSwiftCodegen)
seeds=../../shared/corpus
swift build -c release --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address >/dev/null 2>&1 || {
    echo "build failed: swift build -c release --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address" >&2; exit 2; }
bin=$(swift build -c release --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address --show-bin-path 2>/dev/null)
status=0
for target in "${targets[@]}"; do
    mkdir -p ".corpus/$target" .artifacts
    seedArgs=()
    # FuzzHostileGraph reads its input as graph-building choices, not as a file: no file seeds.
    [ -d "$seeds" ] && [ "$target" != FuzzHostileGraph ] && seedArgs=("$seeds/apple" "$seeds/plain" "$seeds/hostile")
    [ -d "Seeds/$target" ] && seedArgs+=("Seeds/$target")
    log=".artifacts/$target.log"
    SWIFT_BACKTRACE=enable=no "$bin/$target" ".corpus/$target" "${seedArgs[@]}" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix=".artifacts/$target-" -print_final_stats=1 >"$log" 2>&1
    code=$?
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)
    findings=$(ls .artifacts/"$target"-* 2>/dev/null | grep -v '\.log$' | wc -l)
    echo "$target: ${runs:-?} executions in ${seconds}s, exit $code, findings: $findings"
    [ "$code" -eq 0 ] || status=1
done
exit $status
