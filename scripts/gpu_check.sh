#!/usr/bin/env bash
# Runs a build's tests on a GPU machine from any folder: every test binary (GPU tests included),
# then compute-sanitizer on a GPU subset. Logs go to $OUT (or ./gpu-check-logs).
#   scripts/gpu_check.sh [BUILD_DIR] [SANITIZE_FILTER]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
filter=${2:-'*GpuSelection*n40*:*EveryStrategy*/n33_*:*KeOne*/n33_*:*OneUpdate*/n33_*'}
out=${OUT:-$root/gpu-check-logs}
mkdir -p "$out"
export FORMICA_TSPLIB_DIR=${FORMICA_TSPLIB_DIR:-$root/shared/tsplib}
export FORMICA_TEST_DATA_DIR=$root/tests/data
export FORMICA_CLI=$build/formica
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
status=0
for test in "$build"/tests/*_tests; do
  name=$(basename "$test")
  "$test" --gtest_brief=1 >"$out/$name.log" 2>&1 || status=1
  printf '%-12s %s\n' "$name" "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$name.log" | tr '\n' ' ')"
done
grep -h -A2 '^\[  FAILED  \]' "$out"/*_tests.log | head -40
if command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck synccheck; do
    timeout "${SANITIZER_TIMEOUT:-150}" compute-sanitizer --tool "$tool" --error-exitcode 9 "$build/tests/aco_tests" --gtest_brief=1 \
      --gtest_filter="$filter" >"$out/sanitizer-$tool.log" 2>&1
    code=$?
    [ $code -ne 0 ] && status=1
    printf 'compute-sanitizer %-9s exit %d: %s\n' "$tool" "$code" "$(grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED)' "$out/sanitizer-$tool.log" | tr '\n' ' ')"
  done
fi
exit $status
