#!/usr/bin/env bash
# scripts/gpu_sanitize's parsing on fake compute-sanitizer and gtest output (no GPU needed): the
# cell each kind of run gets, and the gtest filter of the GPU test suites.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/gpu_sanitize_lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

expect_cell() {  # expect_cell NAME EXIT_CODE EXPECTED_CELL <<< LOG
  cat >"$work/$1.log"
  local got
  got=$(sanitizer_verdict "$work/$1.log" "$2" 240)
  if [ "$got" != "$3" ]; then
    echo "FAIL $1: expected '$3', got '$got'"
    failures=$((failures + 1))
  else
    echo "ok   $1: $got"
  fi
}

ran='[==========] 12 tests from 3 test suites ran. (812 ms total)'
expect_cell memcheck_clean 0 "0" <<EOF2
========= COMPUTE-SANITIZER
$ran
[  PASSED  ] 12 tests.
========= LEAK SUMMARY: 0 bytes leaked in 0 allocations
========= ERROR SUMMARY: 0 errors
EOF2
expect_cell memcheck_errors 86 "3" <<EOF2
========= COMPUTE-SANITIZER
========= Invalid __global__ read of size 4 bytes
=========     at walk_kernel(int *)+0x1a0 in walks.cu:42
$ran
[  PASSED  ] 12 tests.
========= ERROR SUMMARY: 3 errors
EOF2
expect_cell one_error 86 "1" <<EOF2
$ran
========= ERROR SUMMARY: 1 error
EOF2
expect_cell two_processes 86 "3" <<EOF2
========= ERROR SUMMARY: 1 error
$ran
========= ERROR SUMMARY: 2 errors
EOF2
expect_cell racecheck_clean 0 "0" <<EOF2
$ran
[  PASSED  ] 12 tests.
========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)
EOF2
expect_cell racecheck_hazards 86 "1; 2 race warnings" <<EOF2
========= Error: Race reported between Write access at 0x1f0 in k_swap.cu:88
$ran
========= RACECHECK SUMMARY: 3 hazards displayed (1 error, 2 warnings)
EOF2
expect_cell timed_out 124 "0; timed out after 240 s" <<EOF2
========= COMPUTE-SANITIZER
EOF2
expect_cell crashed 139 "0; no sanitizer summary (exit 139)" <<EOF2
========= COMPUTE-SANITIZER
Segmentation fault
EOF2
expect_cell test_failed 1 "0; 1 tests failed" <<EOF2
[  FAILED  ] GpuColonies.SameSeedSameTours (31 ms)
$ran
[  FAILED  ] 1 test, listed below:
[  FAILED  ] GpuColonies.SameSeedSameTours
========= ERROR SUMMARY: 0 errors
EOF2
expect_cell skipped 0 "0; 2 tests skipped" <<EOF2
[  SKIPPED ] TwoOptCudaLarge.Pla33810FromTheCurve (0 ms)
[  SKIPPED ] TwoOptCudaLarge.Pla85900FromTheCurve (0 ms)
$ran
[  PASSED  ] 10 tests.
[  SKIPPED ] 2 tests, listed below:
[  SKIPPED ] TwoOptCudaLarge.Pla33810FromTheCurve
[  SKIPPED ] TwoOptCudaLarge.Pla85900FromTheCurve
========= ERROR SUMMARY: 0 errors
EOF2
expect_cell nothing_ran 0 "0; no test ran" <<EOF2
[==========] 0 tests from 0 test suites ran. (0 ms total)
========= ERROR SUMMARY: 0 errors
EOF2

# The filter: suites of the files that call FORMICA_REQUIRE_CUDA, none of the others'.
mkdir -p "$work/tests/aco" "$work/tests/core"
cat >"$work/tests/aco/walk_cuda_test.cpp" <<'EOF2'
TEST(WalkCuda, Climbs) {
  FORMICA_REQUIRE_CUDA();
}
TEST_P(SizesCuda, Every) { FORMICA_REQUIRE_CUDA(); }
  TEST_F( FixtureCuda, Runs) {}
EOF2
cat >"$work/tests/core/tour_test.cpp" <<'EOF2'
TEST(Tour, Length) {}
EOF2
filter=$(gpu_test_filter "$work/tests")
expected='FixtureCuda.*:*/FixtureCuda.*:SizesCuda.*:*/SizesCuda.*:WalkCuda.*:*/WalkCuda.*'
if [ "$filter" != "$expected" ]; then
  echo "FAIL filter: expected '$expected', got '$filter'"
  failures=$((failures + 1))
else
  echo "ok   filter: $filter"
fi
# This checkout's filter names the GPU suites and no CPU suite.
filter=$(gpu_test_filter "$root/tests")
for suite in TwoOptCudaClimb GpuColonies BatchWalksCuda CudaSmoke; do
  [[ ":$filter:" == *":$suite.*:"* ]] || { echo "FAIL filter: $suite missing"; failures=$((failures + 1)); }
done
for suite in Tour ColonySearchCpu Cli; do
  [[ ":$filter:" != *":$suite.*:"* ]] || { echo "FAIL filter: CPU suite $suite included"; failures=$((failures + 1)); }
done

# The test names of a --gtest_list_tests listing, parameterised and typed ones included.
names=$(gtest_names <<'EOF2'
Running main() from ./googletest/src/gtest_main.cc
GpuAliasTables.
  GiveEveryCityItsShareOfTheRow
AllMethods/GpuSelection.
  SamplesTheExactDistribution/warp_per_ant_roulette_n40  # GetParam() = 20-byte object <01-00>
Typed/0.  # TypeParam = int
  Works
EOF2
)
expected='GpuAliasTables.GiveEveryCityItsShareOfTheRow
AllMethods/GpuSelection.SamplesTheExactDistribution/warp_per_ant_roulette_n40
Typed/0.Works'
if [ "$names" != "$expected" ]; then
  echo "FAIL names: expected '$expected', got '$names'"
  failures=$((failures + 1))
else
  echo "ok   names: $(echo "$names" | wc -l) tests"
fi

expect_summary() {  # expect_summary NAME EXPECTED_CELL <<< STATUS_LINES
  cat >"$work/$1.status"
  local got
  got=$(per_test_summary "$work/$1.status")
  if [ "$got" != "$2" ]; then
    echo "FAIL $1: expected '$2', got '$got'"
    failures=$((failures + 1))
  else
    echo "ok   $1: $got"
  fi
}
expect_summary all_clean "0 in 2 tests" <<'EOF2'
aco_tests A.x 0
aco_tests B.y 0
EOF2
expect_summary some_late "0 in 1 of 3 tests; 2 timed out with nothing found" <<'EOF2'
aco_tests A.x 0
aco_tests B.y 0; timed out after 500 s
aco_tests C.z 0; timed out after 500 s
EOF2
expect_summary findings "0 in 1 of 3 tests; 2 with findings or failures: B.y (3), C.z (0; 1 tests failed)" <<'EOF2'
cuda_tests A.x 0
cuda_tests B.y 3
cuda_tests C.z 0; 1 tests failed
EOF2

[ $failures = 0 ] && echo "all cells and filters as expected" || echo "$failures failures"
exit $((failures > 0))
