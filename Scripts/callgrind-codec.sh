#!/usr/bin/env bash
# Instruction counts of the binary codec, for comparing two builds (callgrind counts
# instructions, so the figures repeat whatever else the machine is doing; wall-clock
# timings need an idle machine). Usage:
#
#   swift build -c release --product keyedarchive-benchmark
#   bash Scripts/callgrind-codec.sh .build/release/keyedarchive-benchmark TAG flat order dicts ...
#
# For each workload: one warm-up and one measured round of `--contender ArchiveEncoder`
# (`--nskeyed-records 0`, `SWIFT_DETERMINISTIC_HASHING=1` so that dictionaries hash the same
# way each run), and prints the inclusive instructions of the public
# `ArchiveEncoder.encode` and `ArchiveDecoder.decode` (both rounds). `CGEXTRA=--encode-only`
# skips decoding. The callgrind files stay in /tmp/cg-TAG-WORKLOAD.out for
# `callgrind_annotate` (pipe its output through `swift demangle --simplified`).
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 BENCHMARK-BINARY TAG WORKLOAD..." >&2
  exit 2
fi
bin=$(realpath "$1"); tag=$2; shift 2
# callgrind_annotate reads the sources it finds from the current directory, which changes
# its inclusive totals: run it from outside the source tree.
cd /tmp || exit 1
for workload in "$@"; do
  out=/tmp/cg-$tag-$workload.out
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$bin" --workload "$workload" --contender ArchiveEncoder --rounds 1 --nskeyed-records 0 ${CGEXTRA:-} >/dev/null 2>&1
  # The public entry points' own lines (not call sites, not the recursive '2 cycle entries).
  annotated=$(callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null | swift demangle --simplified | grep -v "=>")
  encode=$(echo "$annotated" | grep -E 'ArchiveEncoder\.swift:ArchiveEncoder\.encode<A>\(_:\)' | head -1 | awk '{print $1}')
  decode=$(echo "$annotated" | grep -E 'ArchiveDecoder\.swift:ArchiveDecoder\.decode<A>\(_:from:\)' | head -1 | awk '{print $1}')
  printf '%-10s %-8s encode %15s  decode %15s\n' "$tag" "$workload" "${encode:--}" "${decode:--}"
done
