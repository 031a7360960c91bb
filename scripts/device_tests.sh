#!/usr/bin/env bash
# On the GPU machine: unpack a packed build (device-pack/bin.tar.xz, made from an sm_90 build by
# `tar -C BUILD -cJf device-pack/bin.tar.xz tests/*_tests formica ...`) and run every test binary
# with a time limit each; one summary line per binary, failures and logs under $OUT.
#   scripts/device_tests.sh [GTEST_FILTER] [SECONDS_PER_BINARY]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
filter=${1:-*}
limit=${2:-300}
out=${OUT:-$root/gpu-check-logs}
mkdir -p "$out" /tmp/fb && tar -C /tmp/fb -xJf "$root/device-pack/bin.tar.xz"
export FORMICA_TSPLIB_DIR=$root/shared/tsplib FORMICA_TEST_DATA_DIR=$root/tests/data FORMICA_CLI=/tmp/fb/formica
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for test in /tmp/fb/tests/*_tests; do
  name=$(basename "$test")
  timeout "$limit" "$test" --gtest_brief=1 --gtest_filter="$filter" >"$out/$name.log" 2>&1
  code=$?
  printf '%-18s exit %-3d %s\n' "$name" "$code" "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests? ran' "$out/$name.log" | grep -v '^\[  FAILED  \] [A-Z]' | tr '\n' ' ')"
done
grep -h -B3 '^\[  FAILED  \]' "$out"/*_tests.log | grep -vE '^\[  FAILED  \].*\(' | head -60
grep -h '^\[  FAILED  \]' "$out"/*_tests.log | sort -u | head -40
